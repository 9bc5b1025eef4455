package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodeTargetsFile decodes a deployer's targets file (--remote-hosts,
// --docker-targets, --k8s-targets) into v strictly: at most
// maxRemoteHostsBytes, one JSON object, no field v lacks, nothing after
// it.
func decodeTargetsFile(data []byte, v any) error {
	if len(data) > maxRemoteHostsBytes {
		return fmt.Errorf("the file is larger than %d bytes", maxRemoteHostsBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
