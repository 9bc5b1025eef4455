// Package escape decodes the backslash escapes a job's input may carry
// ("\x03" for Ctrl-C, "\e[A" for the up arrow, "rs\n") into the bytes that
// are written to the program, and describes bytes back in the same notation.
//
// The notation is the pty-runner seed's:
//
//	\xHH    one byte, two hex digits (\x03 is Ctrl-C)
//	\cX     the control character of X: \cC is 0x03, \c[ is ESC, \c? is DEL
//	\n \r \t  newline, carriage return, tab
//	\e \a \0 \b  ESC, BEL, NUL, backspace
//	\\      one backslash
//	\uXXXX  a Unicode character as UTF-8 (a surrogate pair makes one character)
//
// Anything else that starts with a backslash (\q, a \x with fewer than two
// hex digits, a lone surrogate, a backslash at the end) is kept exactly as
// written: the decoder never drops input.
package escape
