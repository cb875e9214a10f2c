package look

import "strings"

// maxHighlight is the largest text coloured; a longer one is shown plain,
// so that selecting a huge message never stalls the UI.
const maxHighlight = 256 << 10

// jsonClass is what a run of JSON text is: the part of the grammar that
// picks its colour.
type jsonClass uint8

const (
	jsonPlain   jsonClass = iota // white space, and text that is not JSON
	jsonPunct                    // { } [ ] , :
	jsonName                     // a string that names a member (before its colon)
	jsonString                   // a string value
	jsonNumber                   // a number
	jsonLiteral                  // true, false, null
	jsonClasses                  // the number of classes
)

// jsonTints are the colours of JSON text by class, taken from the theme.
type jsonTints [jsonClasses]Tint

// newJSONTints colours member names with the accent, strings as good text,
// numbers and literals as outgoing text and punctuation as muted text.
func newJSONTints(s *Styles) jsonTints {
	return jsonTints{jsonPunct: s.Ink.Muted, jsonName: s.Ink.Accent, jsonString: s.Ink.Good, jsonNumber: s.Ink.Out, jsonLiteral: s.Ink.Out}
}

// HighlightJSON colours JSON text with the theme's JSON tints. The text is
// unchanged but for the colour sequences around its tokens; a part that is
// not JSON is left plain, and text over maxHighlight is not coloured.
func HighlightJSON(text string, st *Styles) string {
	if len(text) > maxHighlight {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) * 2)
	scanJSON(text, func(c jsonClass, s string) {
		b.WriteString(st.json[c].Paint(s))
	})
	return strings.TrimRight(b.String(), "\n")
}

// scanJSON splits text into runs of one class and calls emit for each, in
// order; the runs joined are text. Neighbouring runs of one class are
// joined into one. It never fails: what it does not recognise is plain.
func scanJSON(text string, emit func(jsonClass, string)) {
	start, class := 0, jsonPlain
	flush := func(i int, c jsonClass) {
		if c != class {
			if i > start {
				emit(class, text[start:i])
			}
			start, class = i, c
		}
	}
	for i := 0; i < len(text); {
		ch := text[i]
		switch {
		case ch == '"':
			end := stringEnd(text, i)
			if end < 0 {
				flush(i, jsonPlain)
				i = len(text)
				continue
			}
			c := jsonString
			if nextIsColon(text, end) {
				c = jsonName
			}
			flush(i, c)
			i = end
		case strings.IndexByte("{}[],:", ch) >= 0:
			flush(i, jsonPunct)
			i++
		case ch == '-' || isDigit(ch):
			flush(i, jsonNumber)
			i = numberEnd(text, i)
		case isLetter(ch):
			end := i
			for end < len(text) && isLetter(text[end]) {
				end++
			}
			switch text[i:end] {
			case "true", "false", "null":
				flush(i, jsonLiteral)
			default:
				flush(i, jsonPlain)
			}
			i = end
		default:
			flush(i, jsonPlain)
			i++
		}
	}
	if start < len(text) {
		emit(class, text[start:])
	}
}

// stringEnd returns the index just past the string that starts with the
// quote at text[i], or -1 when the string is not closed on its line.
func stringEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		case '\n', '\r':
			return -1
		}
	}
	return -1
}

// nextIsColon reports whether the first byte after i that is not white
// space is a colon.
func nextIsColon(text string, i int) bool {
	for ; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

// numberEnd returns the index just past the number starting at text[i].
func numberEnd(text string, i int) int {
	for i++; i < len(text); i++ {
		ch := text[i]
		if !isDigit(ch) && strings.IndexByte(".eE+-", ch) < 0 {
			break
		}
	}
	return i
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
