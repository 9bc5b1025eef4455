// Package shellrun runs commands in a ptyseam shell session, local or
// remote, and returns each command's output and exit code.
//
// Run types one line into the session's shell:
//
//	printf '%s%s\n' PTYSEAM_B_ NONCE; eval 'COMMAND'; printf '\n%s%s %d\n' PTYSEAM_E_ NONCE "$?"
//
// and cuts the output between the two printed markers. NONCE is random for
// every run and appears on the terminal only when printf joins its halves,
// so neither the terminal's echo of the line nor anything the command
// prints (even text that looks like a marker or a prompt) can be mistaken
// for a frame. eval runs the command in the shell itself, so its state (the
// working directory, variables, functions) persists between runs, and a
// syntax error in the command is reported as exit code 2 instead of
// leaving the shell waiting for more input. The shell must be a POSIX
// shell (sh, bash, dash, zsh, ksh) at its prompt.
package shellrun
