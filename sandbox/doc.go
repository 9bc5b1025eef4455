// Package sandbox is the launcher of localpty's sandboxed sessions: the
// small step between the server and a session's program that gives the
// session a /dev, /dev/pts and /proc of its own (in the mount namespace
// the backend started it in), confines the file system with Landlock,
// forbids UNIX sockets that could reach the host's with a seccomp filter,
// and then executes the program.
//
// Landlock restricts the process that asks and everything it starts
// later; a server cannot restrict a child it forks without restricting
// itself. So the backend starts its launcher (localpty.Sandbox.Launcher)
// in the session's new terminal, mount and network namespaces and cgroup
// leaf, and the launcher restricts itself and executes the program, which
// inherits the restriction. A Go program serves the launcher by dispatching to
// [Exec] when it is started as its [Command]:
//
//	if len(os.Args) > 1 && os.Args[1] == sandbox.Command {
//		err := sandbox.Exec(os.Args[2:])
//		fmt.Fprintln(os.Stderr, "sandbox:", err)
//		os.Exit(126)
//	}
//
// and configures localpty.Sandbox{Launcher: []string{self, sandbox.Command}}.
package sandbox
