package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// IsJSONNumber reports whether s is exactly a JSON number literal: no
// white space, no leading plus or zeros, digits on both sides of a point.
func IsJSONNumber(s string) bool {
	return s != "" && (s[0] == '-' || isDigit(s[0])) && isDigit(s[len(s)-1]) && json.Valid([]byte(s))
}

// isIntDigits reports whether s is an optional sign followed by digits.
func isIntDigits(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// maxSafeInteger is the largest integer a float64 holds exactly.
const maxSafeInteger = 1 << 53

// parseScalar reads typed text as a JSON value of kind k. Text stays text;
// numbers keep the digits typed (an integer stays an integer); free JSON
// that does not parse is taken as a string.
func parseScalar(s string, k kind) (json.RawMessage, error) {
	t := strings.TrimSpace(s)
	switch k {
	case kindText:
		return quote(s), nil
	case kindInteger:
		return parseInteger(t)
	case kindNumber:
		return parseNumber(t)
	case kindBool:
		switch strings.ToLower(t) {
		case "true":
			return json.RawMessage("true"), nil
		case "false":
			return json.RawMessage("false"), nil
		}
		return nil, errors.New("not true or false")
	}
	if json.Valid([]byte(t)) {
		return json.RawMessage(compact(json.RawMessage(t))), nil
	}
	return quote(s), nil
}

// parseInteger reads an integer: digits of any length, or a number with no
// fraction such as 7.0 or 1e3.
func parseInteger(t string) (json.RawMessage, error) {
	if isIntDigits(t) {
		var b big.Int
		if _, ok := b.SetString(t, 10); ok {
			return json.RawMessage(b.String()), nil
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return nil, errors.New("not an integer")
	}
	return json.RawMessage(strconv.FormatFloat(f, 'f', -1, 64)), nil
}

// parseNumber reads a number: a JSON number literal as typed, or anything
// strconv understands that is finite (".5", "+1", "1.").
func parseNumber(t string) (json.RawMessage, error) {
	f, err := strconv.ParseFloat(t, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(t, "xX_") ||
		(err != nil && !IsJSONNumber(t)) {
		return nil, errors.New("not a number")
	}
	if IsJSONNumber(t) {
		return json.RawMessage(t), nil
	}
	return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

// parseList reads comma-separated items of kind item ("a, b, c"), or a
// JSON array when the text starts with "[".
func parseList(s string, item kind) (json.RawMessage, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") {
		var arr []json.RawMessage
		if err := json.Unmarshal([]byte(t), &arr); err != nil {
			return nil, errors.New("not a JSON array")
		}
		return json.RawMessage(compact(json.RawMessage(t))), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for _, part := range strings.Split(t, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		v, err := parseScalar(part, item)
		if err != nil {
			return nil, fmt.Errorf("item %d (%q): %w", n+1, part, err)
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
		n++
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// textOf is the text a field of kind k shows for a JSON value, so that
// parsing the text gives the value back.
func textOf(raw json.RawMessage, k kind) string {
	if raw == nil {
		return ""
	}
	var s string
	isString := json.Unmarshal(raw, &s) == nil
	switch {
	case k == kindJSON && isString && !json.Valid([]byte(strings.TrimSpace(s))):
		return s
	case k == kindJSON:
		return compact(raw)
	case isString:
		return s
	}
	return compact(raw)
}

// listText is the text of a list field for an array value: items joined by
// ", " when each one reads back the same, else the array as JSON.
func listText(raw json.RawMessage, item kind) string {
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) != nil {
		return textOf(raw, kindJSON)
	}
	parts := make([]string, 0, len(arr))
	for _, v := range arr {
		t := textOf(v, item)
		back, err := parseScalar(t, item)
		if err != nil || canonical(back) != canonical(v) || t != strings.TrimSpace(t) ||
			t == "" || strings.Contains(t, ",") || (len(parts) == 0 && strings.HasPrefix(t, "[")) {
			return compact(raw)
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, ", ")
}

// quote encodes a string as JSON without escaping <, > and &.
func quote(s string) json.RawMessage { return jsonrpc.QuoteJSON(s) }

// canonical is a comparable form of a JSON value: 1 and 1.0 compare equal,
// object keys are sorted.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
