package theme

import (
	"image/color"

	"github.com/charmbracelet/x/ansi"
)

// KittyImageID is the foreground colour a kitty Unicode placeholder cell
// names its picture by: the image id as a 256-colour index, which every
// colour profile of 256 colours and more keeps. Nobody sees it: the
// terminal draws the picture in the cell.
func KittyImageID(id uint8) color.Color { return ansi.IndexedColor(id) }
