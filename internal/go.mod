module github.com/ptyseam/ptyseam/internal

go 1.26.0

require golang.org/x/sys v0.50.0
