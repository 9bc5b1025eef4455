package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// readTargetsFile reads the targets file named by flag at file and
// parses it; its errors name the flag (and the file, when it does not
// parse).
func readTargetsFile[F any](flag, file string, parse func([]byte) (F, error)) (F, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		var zero F
		return zero, fmt.Errorf("%s: %w", flag, err)
	}
	f, err := parse(data)
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", flag, file, err)
	}
	return f, nil
}

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
