package core

import "testing"

func TestLooksLikeShellPrompt(t *testing.T) {
	for line, want := range map[string]bool{
		"user@host:~$ ":                         true,
		"root@box:/# ":                          true,
		"host% ":                                true,
		"$ ":                                    true,
		">>> ":                                  true,
		"bash-5.2$ ":                            true,
		"Password: user@host:~$ ":               true, // the prompt after a hidden answer
		"Password: ":                            false,
		"user@host's password: ":                false,
		"Continue? [y/N] ":                      false,
		"Enter passphrase for key 'id': ":       false,
		"progress 50% ":                         false,
		"#### ":                                 false,
		"user@host:~$":                          false, // no room to type yet
		"":                                      false,
		"the price is $":                        false,
		"Downloading... 100%  ":                 false,
		"(venv) user@host:~/src$ ":              true,
		"mysql> ":                               true,
		"==> ":                                  true,
		"a line that ends in a dollar sign $  ": true,
	} {
		if got := looksLikeShellPrompt(line); got != want {
			t.Errorf("looksLikeShellPrompt(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestLooksLikeProgramPrompt(t *testing.T) {
	for line, want := range map[string]bool{
		"(Pdb) ":                   true,
		"(gdb) ":                   true,
		"(lldb) ":                  true,
		"In [12]: ":                true,
		">>> ":                     true,
		"db> ":                     true,
		"... ":                     true, // a console's continuation
		"   ...> ":                 true,
		"Loading... ":              false,
		"(Pdb)":                    false, // no room to type yet
		"(y or n) ":                false,
		"(yes/no) ":                false,
		"x (Pdb) ":                 false,
		"Password: ":               false,
		"(a very long name here) ": false,
	} {
		if got := looksLikeProgramPrompt(line); got != want {
			t.Errorf("looksLikeProgramPrompt(%q) = %v, want %v", line, got, want)
		}
	}
}

func FuzzLooksLikeShellPrompt(f *testing.F) {
	for _, s := range []string{"user@host:~$ ", "Password: ", "50% ", ">>> ", "#### "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if looksLikeShellPrompt(line) && (len(line) > maxPromptLine || line[len(line)-1] != ' ' && line[len(line)-1] != '\t') {
			t.Fatalf("%q: a prompt ends in room to type and fits maxPromptLine", line)
		}
	})
}
