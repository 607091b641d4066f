// Package weights owns every format weights leave gametune in or come
// back from (docs/weights.md): the JSON weights file every --weights flag
// reads (File, Parse, Read, Write), the compact gzip-compressed file of an
// evaluator with tables (TablesHeader, the ".gtw" files, which the games
// also embed as their shipped defaults), and the export formats (Encode):
// a gofmt-ed Go file, a C header, UCI setoption lines in the units of tune
// engine's options (WeightUnit, SpinValue), and a run's history as CSV.
//
// A format here knows weights and evaluators (package games) only: which
// genome of a run to write is the run store's to say (results), and which
// game a name stands for is the registry's (games/all, handed to Convert).
package weights
