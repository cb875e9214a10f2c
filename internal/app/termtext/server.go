package termtext

import "strings"

// ServerTextMax is the most bytes of one piece of server text (an error
// message, a progress message, a tool name) that a line on stderr or in a
// report quotes; a longer one is cut and says how much was left out.
const ServerTextMax = 2 << 10

// OneLine makes server text safe to print inside a line: line breaks and
// runs of white space fold to one space, escape sequences and other
// controls are shown escaped (\x1b), and text over ServerTextMax bytes is
// shortened.
func OneLine(s string) string {
	return LineMax(strings.Join(strings.Fields(s), " "), ServerTextMax)
}

// Quote renders server text between double quotes, safe to print: quotes
// and backslashes are escaped, controls shown escaped, and text over
// ServerTextMax bytes shortened.
func Quote(s string) string { return QuoteMax(s, ServerTextMax) }

// WholeLineMax is the most bytes of one whole line mcpscope writes (an
// error sentence, a warning, a report line): the last guard for text that
// reached a line without passing through OneLine or Quote.
const WholeLineMax = 16 << 10

// SafeLine is the guard every whole line passes: whatever server text it
// still holds is shown escaped and the line is bounded by WholeLineMax.
func SafeLine(s string) string { return LineMax(s, WholeLineMax) }
