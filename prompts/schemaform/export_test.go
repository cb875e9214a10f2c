package schemaform

import "time"

// testNow is the moment every date field of the tests opens at, so that
// the calendars in golden files do not depend on the day the tests run.
var testNow = time.Date(2026, time.May, 14, 9, 30, 0, 0, time.UTC)

func init() { clock = func() time.Time { return testNow } }
