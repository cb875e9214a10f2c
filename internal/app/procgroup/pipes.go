package procgroup

import (
	"fmt"
	"os"
	"os/exec"
)

// Pipes are the parent's ends of a started process's standard streams.
type Pipes struct {
	Stdin          *os.File // written by the parent
	Stdout, Stderr *os.File // read by the parent
}

// StartPiped starts cmd with fresh pipes for its standard streams and
// returns the parent's ends. The pipes are *os.File so that a Close
// unblocks a Read or Write in progress.
func StartPiped(cmd *exec.Cmd) (Pipes, error) {
	var parent, child [3]*os.File // stdin, stdout, stderr
	closeAll := func(fs [3]*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(parent)
			closeAll(child)
			return Pipes{}, &PipeError{Err: err}
		}
		if i == 0 {
			child[i], parent[i] = r, w
		} else {
			parent[i], child[i] = r, w
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
	err := cmd.Start()
	closeAll(child) // the process holds its own copies now
	if err != nil {
		closeAll(parent)
		return Pipes{}, err
	}
	return Pipes{Stdin: parent[0], Stdout: parent[1], Stderr: parent[2]}, nil
}

// PipeError says the pipes of a process could not be made.
type PipeError struct{ Err error }

func (e *PipeError) Error() string { return fmt.Sprintf("creating pipes: %v", e.Err) }

// Unwrap returns the system's error.
func (e *PipeError) Unwrap() error { return e.Err }
