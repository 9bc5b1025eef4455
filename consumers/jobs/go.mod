module github.com/ptyseam/ptyseam/consumers/jobs

go 1.26.8
