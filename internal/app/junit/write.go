package junit

import (
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/atomicfile"
)

// WriteFile writes the suite to path atomically (atomicfile.Write), so
// that a reader never sees half a report and a failed write leaves the
// previous file whole.
func WriteFile(path string, s Suite) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, b, 0o666, nil); err != nil {
		return fmt.Errorf("writing the JUnit report %s: %w", path, err)
	}
	return nil
}
