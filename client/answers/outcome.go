package answers

import (
	"bytes"
	"encoding/json"
)

// Outcome is the line a finished interactive session of a script step
// prints: the interaction.complete the server sent.
type Outcome struct {
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result"`
	Summary   string          `json:"summary"`
}

// Cancelled is the line a script step prints when an interaction answer
// cancelled its session.
type Cancelled struct {
	SessionID string `json:"sessionId"`
	Cancelled bool   `json:"cancelled"`
}

// Line renders an Outcome or a Cancelled as the one line of JSON a step
// prints, without HTML escaping, so a summary's "<" stays "<".
func Line(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
