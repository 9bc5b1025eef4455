// Package openssh drives the login of the OpenSSH client (ssh) running on
// a ptyseam session, for users who must use their existing ssh setup
// (config, agent, jump hosts) rather than the ssh backend.
//
// Login starts `ssh [ARGS] -p PORT USER@HOST` on a local PTY (the "exec"
// backend) and answers what the client asks on the terminal:
//
//   - the host key question ("Are you sure you want to continue
//     connecting"): through Options.HostKey; without one, or when it says
//     no, the answer is "no" and Login fails with *ssh.UnknownHostError
//     carrying the fingerprint. A changed host key ("REMOTE HOST
//     IDENTIFICATION HAS CHANGED") is *ssh.HostKeyChangedError.
//   - password, key passphrase and keyboard-interactive prompts: through
//     Options.Secrets. Answers are typed into the terminal with echo off
//     and never logged or returned. A second prompt of the same kind (the
//     answer was wrong) and "Permission denied" end the login with
//     *ssh.AuthError: there is no retry loop.
//
// What the server printed before the shell (the banner, the message of the
// day) is returned in Session.Transcript. Login ends with the remote shell
// at its prompt and synchronised: it installs the OSC 133 prompt marker of
// core/localpty (a bash prompt, unless Options.KeepPrompt) so the
// service's sends settle on the remote prompt, and confirms with a framed
// command (package shellrun) that the shell executes input.
package openssh
