package sse

// lineBlock is the size of the blocks lineFree skips: a line end is found
// at most this many bytes past where it stops.
const lineBlock = 128

// lineFree returns how many bytes at the start of b hold no CR and no LF,
// in whole blocks of lineBlock bytes: it stops at the first block that
// holds a line end, or short of the end of b. Where it is vectorized
// (amd64 with AVX2) it looks at each byte once for both line ends, so that
// a long line costs one pass, not a search for LF and then one for CR; it
// returns 0 elsewhere, leaving the whole search to the finders.
func lineFree(b []byte) int { return lineFreeBlocks(b) }
