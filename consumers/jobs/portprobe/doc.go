// Package portprobe tells whether a TCP port on this machine is already
// taken, and finds the service addresses a program announces in its output
// ("Local: http://localhost:5173/").
//
// [Probe] checks a port before a job that wants it is launched, so the
// launch can warn instead of letting the program fail later with
// "address already in use". [Detect] and [Set] collect the URLs a job
// printed, for listing next to the job.
package portprobe
