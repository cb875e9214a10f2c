package mcpconfig

// StripJSONC turns JSON with comments (// line and /* block */) and
// trailing commas, as VS Code writes its settings, into plain JSON. Every
// removed byte becomes a space (line breaks stay), so an offset into the
// result is the same offset into data and errors keep their line:column.
// An unterminated block comment is blanked to the end; strings are copied
// as they are, escapes included.
func StripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	// lastComma is the index of a comma not yet followed by anything but
	// blanks, or -1.
	lastComma := -1
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			lastComma = -1
			i = skipString(out, i)
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					break
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// skipString returns the index of the quote closing the string that opens
// at data[i] (or the last index when it is not closed).
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(data) - 1
}
