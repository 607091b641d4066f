package games

import "github.com/gametune/gametune/files"

// ErrTooLarge is wrapped by the error of ReadWeights for a file larger than
// its limit (files.ErrTooLarge).
var ErrTooLarge = files.ErrTooLarge
