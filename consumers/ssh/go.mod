module github.com/ptyseam/ptyseam/consumers/ssh

go 1.26.8
