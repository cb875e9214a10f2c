package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// EmptyObject is the JSON value {}, the usual value of a capability flag
// such as "sampling": {}.
var EmptyObject = json.RawMessage(`{}`)

// decodeKeepingUnknown decodes the JSON object data into v (a pointer to a
// struct) and returns the members whose keys match no field of that struct,
// so a value that is re-encoded keeps what a newer peer sent.
func decodeKeepingUnknown(data []byte, v any) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	known := jsonKeys(reflect.TypeOf(v).Elem())
	var unknown map[string]json.RawMessage
	for k, raw := range all {
		if known[k] {
			continue
		}
		if unknown == nil {
			unknown = make(map[string]json.RawMessage)
		}
		unknown[k] = raw
	}
	return unknown, nil
}

// encodeKeepingUnknown encodes v (a struct) and appends the unknown members
// that no field of v already wrote, in key order.
func encodeKeepingUnknown(v any, unknown map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(unknown) == 0 {
		return b, err
	}
	known := jsonKeys(reflect.TypeOf(v))
	keys := make([]string, 0, len(unknown))
	for k := range unknown {
		if !known[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := bytes.TrimSuffix(bytes.TrimSpace(b), []byte("}"))
	for _, k := range keys {
		if !json.Valid(unknown[k]) {
			return nil, fmt.Errorf("member %q is not valid JSON", k)
		}
		if out[len(out)-1] != '{' {
			out = append(out, ',')
		}
		name, _ := json.Marshal(k)
		out = append(out, name...)
		out = append(out, ':')
		out = append(out, unknown[k]...)
	}
	return append(out, '}'), nil
}

// jsonKeys returns the JSON member names of the fields of struct type t.
func jsonKeys(t reflect.Type) map[string]bool {
	keys := make(map[string]bool, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		keys[name] = true
	}
	return keys
}
