package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// faultLine is a rule as MarshalFaults writes it, members in file order.
type faultLine struct {
	Match     *Filter         `json:"match,omitempty"`
	Delay     string          `json:"delay,omitempty"`
	Drop      bool            `json:"drop,omitempty"`
	Duplicate bool            `json:"duplicate,omitempty"`
	Corrupt   bool            `json:"corrupt,omitempty"`
	Error     json.RawMessage `json:"error,omitempty"`
	Cut       bool            `json:"cut,omitempty"`
	After     int             `json:"after,omitempty"`
	Times     int             `json:"times,omitempty"`
}

// MarshalFaults writes rules as a faults file ParseFaults reads back the
// same: YAML with one rule a line, each written in JSON (the TUI's faults
// as text to edit, or to save for --faults).
func MarshalFaults(rules []Fault) ([]byte, error) {
	if err := checkFaults(rules); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("faults:\n")
	if len(rules) == 0 {
		b.WriteString("  []\n")
	}
	for _, f := range rules {
		l := faultLine{After: f.After, Times: f.Times}
		if f.Match != (Filter{}) {
			l.Match = &f.Match
		}
		switch f.Action {
		case FaultDelay:
			l.Delay = f.Delay.String()
		case FaultDrop:
			l.Drop = true
		case FaultDuplicate:
			l.Duplicate = true
		case FaultCorrupt:
			l.Corrupt = true
		case FaultCut:
			l.Cut = true
		case FaultError:
			e, err := json.Marshal(f.Error)
			if err != nil {
				return nil, fmt.Errorf("the error of %s: %w", f, err)
			}
			l.Error = e
		}
		line, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		b.WriteString("  - ")
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
