package look

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Track draws a progress bar of w cells and its count: filled to
// progress/total with the percentage when there is a total, else a block
// that moves one cell a report (reports counts them) beside the count.
func Track(progress, total float64, reports, w int) (track, count string) {
	w = max(w, 1)
	if total > 0 && !math.IsInf(total, 0) && !math.IsNaN(total) {
		frac := min(max(progress/total, 0), 1)
		if math.IsNaN(frac) {
			frac = 0
		}
		filled := int(frac*float64(w) + 0.5)
		return strings.Repeat("▌", filled) + strings.Repeat("░", w-filled),
			fmt.Sprintf("%3.0f%% %s/%s", frac*100, Number(progress), Number(total))
	}
	block := min(3, w)
	at := max(reports-1, 0) % (w - block + 1)
	return strings.Repeat("░", at) + strings.Repeat("▌", block) + strings.Repeat("░", w-block-at),
		Number(progress) + " (no total)"
}

// Number renders a progress value: 3, 2.5.
func Number(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
