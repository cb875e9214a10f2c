package recordings

import (
	"errors"
	"io"
)

// MaxCorruptNamed is how many corrupt lines a Damage names; past it they
// are only counted.
const MaxCorruptNamed = 10

// Damage is what was wrong with a recording read to its end.
type Damage struct {
	// Torn is the torn last line, or nil: the recording was cut short
	// (killed, or its disk filled) and everything before it was read.
	Torn *TruncatedError
	// Corrupt names the first MaxCorruptNamed lines that were not records.
	Corrupt []*CorruptError
	// Skipped counts every corrupt line skipped.
	Skipped int
}

// Walk reads the records of r in order and hands each to fn. A corrupt
// line is skipped and a torn last line ends the walk, both noted in the
// Damage; an error reading the recording or from fn ends the walk and is
// returned.
func Walk(r *Reader, fn func(*Record) error) (Damage, error) {
	var d Damage
	for {
		rec, err := r.Next()
		var torn *TruncatedError
		var corrupt *CorruptError
		switch {
		case err == nil:
			if err := fn(rec); err != nil {
				return d, err
			}
		case errors.Is(err, io.EOF):
			return d, nil
		case errors.As(err, &torn):
			d.Torn = torn
			return d, nil
		case errors.As(err, &corrupt):
			d.Skipped++
			if len(d.Corrupt) < MaxCorruptNamed {
				d.Corrupt = append(d.Corrupt, corrupt)
			}
		default:
			return d, err
		}
	}
}
