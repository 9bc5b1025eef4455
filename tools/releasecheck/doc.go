// Command releasecheck checks that every published module of a multi-module
// repository can be released as it stands: each module zips cleanly as a
// module version (golang.org/x/mod/zip's checks: reserved file names, case
// collisions, size), requires every sibling it imports at the candidate
// version, declares a go version without a patch release, carries a LICENSE,
// is tidy, builds and vets outside the workspace, and can be fetched with
// `go get` into a fresh module from a file-system proxy and built there.
//
// Usage, from the repository root:
//
//	go run ./tools/releasecheck -version v0.1.0 core ptysession ...
//
// The candidate version defaults to the first line of the VERSION file. The
// check reads committed files only (HEAD), as `go mod download` of a tag
// would, so commit before you run it.
package main
