module github.com/ptyseam/ptyseam/tools/releasecheck

go 1.26.0

require golang.org/x/mod v0.43.0
