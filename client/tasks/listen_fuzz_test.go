package tasks

import (
	"encoding/json"
	"testing"
)

// FuzzAcceptedTaskIDs: the params of any acknowledgement a server sends
// decode without a panic; ids come only from a well-formed
// notifications.taskIds, each a string of the params.
func FuzzAcceptedTaskIDs(f *testing.F) {
	for _, s := range []string{
		`{"notifications":{"taskIds":["T1","T2"]}}`,
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{}}`,
		`{"notifications":{"taskIds":[1,"T"]}}`,
		`{"notifications":{"taskIds":null}}`,
		`{"notifications":[]}`, `[]`, `null`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		ids := acceptedTaskIDs(params)
		if len(ids) > 0 && !json.Valid(params) {
			t.Fatalf("ids %q from invalid JSON %q", ids, params)
		}
	})
}
