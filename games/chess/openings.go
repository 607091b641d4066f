package chess

// Openings are the chess openings of tune match and tune tournament by
// default (games.OpeningBook): 50 main lines of the openings every
// opening book holds, six to eight plies each, taken from the standard
// theory (ECO codes beside them), so that a match starts from positions a
// tester would accept: no white king on e2, no black queen on e7. Each
// line is given as moves from the start.
func (game) Openings() []string { return namedOpenings }

var namedOpenings = []string{
	"moves: e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6", // B90 Sicilian, Najdorf move order
	"moves: e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6", // B33 Sicilian, Classical
	"moves: e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6", // B43 Sicilian, Kan
	"moves: e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7", // B25 Sicilian, Closed
	"moves: e2e4 c7c5 c2c3 g8f6 e4e5 f6d5 d2d4 c5d4", // B22 Sicilian, Alapin
	"moves: e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6", // C78 Ruy Lopez
	"moves: e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 f6e4", // C67 Ruy Lopez, Berlin
	"moves: e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6", // C54 Italian, Giuoco Piano
	"moves: e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8e7", // C55 Two Knights, quiet
	"moves: e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6", // C45 Scotch
	"moves: e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4", // C42 Petrov
	"moves: e2e4 e7e5 b1c3 g8f6 g2g3 d7d5 e4d5 f6d5", // C26 Vienna
	"moves: e2e4 e7e5 g1f3 b8c6 b1c3 g8f6 d2d4 e5d4", // C47 Four Knights, Scotch
	"moves: e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7", // C13 French, Classical
	"moves: e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5", // C18 French, Winawer
	"moves: e2e4 e7e6 d2d4 d7d5 b1d2 c7c5 e4d5 e6d5", // C07 French, Tarrasch
	"moves: e2e4 e7e6 d2d4 d7d5 e4e5 c7c5 c2c3 b8c6", // C02 French, Advance
	"moves: e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5", // B18 Caro-Kann, Classical
	"moves: e2e4 c7c6 d2d4 d7d5 e4e5 c8f5 g1f3 e7e6", // B12 Caro-Kann, Advance
	"moves: e2e4 c7c6 d2d4 d7d5 e4d5 c6d5 c2c4 g8f6", // B13 Caro-Kann, Panov
	"moves: e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 g1f3 f8g7", // B08 Pirc, Classical
	"moves: e2e4 g7g6 d2d4 f8g7 c2c4 d7d6 b1c3 e7e5", // B06 Modern, with c4
	"moves: e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6", // B01 Scandinavian
	"moves: e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3 c8g4", // B05 Alekhine, Modern
	"moves: d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7", // D53 Queen's Gambit Declined
	"moves: d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4", // D15 Slav, accepted
	"moves: d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 e7e6", // D43 Semi-Slav
	"moves: d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 e2e3 e7e6", // D27 Queen's Gambit Accepted
	"moves: d2d4 d7d5 c2c4 e7e6 b1c3 c7c5 c4d5 e6d5", // D32 Tarrasch Defence
	"moves: d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6", // E90 King's Indian
	"moves: d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5", // D85 Grünfeld, Exchange
	"moves: d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8", // E46 Nimzo-Indian, Rubinstein
	"moves: d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8b7", // E15 Queen's Indian
	"moves: d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2 f8e7", // E06 Catalan
	"moves: d2d4 g8f6 c2c4 c7c5 d4d5 e7e6 b1c3 e6d5", // A60 Modern Benoni
	"moves: d2d4 g8f6 c2c4 e7e6 g1f3 f8b4 c1d2 d8e7", // E11 Bogo-Indian
	"moves: d2d4 f7f5 g2g3 g8f6 f1g2 g7g6 g1f3 f8g7", // A81 Dutch, Leningrad
	"moves: d2d4 g8f6 c1f4 d7d5 e2e3 e7e6 g1f3 c7c5", // D02 London System
	"moves: d2d4 g8f6 c2c4 c7c5 d4d5 b7b5 c4b5 a7a6", // A57 Benko Gambit
	"moves: d2d4 d7d5 g1f3 g8f6 e2e3 e7e6 f1d3 c7c5", // D05 Colle
	"moves: c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5", // A29 English, Four Knights
	"moves: c2c4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7", // A36 English, Symmetrical
	"moves: c2c4 g8f6 b1c3 e7e6 e2e4 d7d5 e4e5 d5d4", // A18 English, Flohr-Mikenas
	"moves: c2c4 e7e6 b1c3 d7d5 d2d4 g8f6 c4d5 e6d5", // D35 QGD, Exchange by transposition
	"moves: g1f3 d7d5 g2g3 g8f6 f1g2 g7g6 e1g1 f8g7", // A07 King's Indian Attack
	"moves: g1f3 g8f6 c2c4 b7b6 g2g3 c8b7 f1g2 e7e6", // A15 Réti, English set-up
	"moves: g1f3 d7d5 c2c4 e7e6 g2g3 g8f6 f1g2 f8e7", // A13 Réti
	"moves: e2e4 e7e5 f2f4 e5f4 g1f3 g7g5 h2h4 g5g4", // C39 King's Gambit Accepted
	"moves: e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 b5d7 d8d7", // B52 Sicilian, Moscow
	"moves: d2d4 e7e6 c2c4 f8b4 c1d2 b4d2 d1d2 g8f6", // A40 Bogo-Indian exchange by transposition
}
