package main

import "github.com/ptyseam/ptyseam/remote"

// agentCommand is the subcommand a host runs on the far side (over ssh,
// in a container, in a pod) to serve sessions over its standard input and
// output (remote.RunAgent; docs/remote.md).
const agentCommand = remote.AgentCommand
