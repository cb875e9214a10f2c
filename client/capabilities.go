package client

import "encoding/json"

// Advertised lists the capabilities a server's capabilities object
// declares (tools, resources, prompts, …): a member whose value is null
// declares nothing. nil when raw is not an object.
func Advertised(raw json.RawMessage) map[string]bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return nil
	}
	caps := make(map[string]bool, len(members))
	for k, v := range members {
		caps[k] = string(v) != "null"
	}
	return caps
}
