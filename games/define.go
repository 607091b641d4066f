package games

// Define returns the Game made of its parts: name is the registry name,
// doc one line about the game and its rules, notation how positions and
// moves are written (with an example), start makes a new start position,
// parse is the game's position parser, and evaluators are its evaluators,
// the first the default (Game.Evaluators returns copies). A game with more
// abilities (Recorder) embeds the result in a type of its own that adds
// their methods. Games compare equal when they come from one call: a game
// package defines its game once.
func Define[P Position](name, doc, notation string, start func() P, parse func(string) (P, error), evaluators ...*Evaluator) Game {
	return &defined[P]{name, doc, notation, start, parse, evaluators}
}

type defined[P Position] struct {
	name, doc, notation string
	start               func() P
	parse               func(string) (P, error)
	evaluators          []*Evaluator
}

func (g *defined[P]) Name() string                             { return g.name }
func (g *defined[P]) Doc() string                              { return g.doc }
func (g *defined[P]) Notation() string                         { return g.notation }
func (g *defined[P]) Start() Position                          { return g.start() }
func (g *defined[P]) ParsePosition(s string) (Position, error) { return ParseWith(g.parse, s) }

func (g *defined[P]) Evaluators() []*Evaluator {
	out := make([]*Evaluator, len(g.evaluators))
	for i, ev := range g.evaluators {
		out[i] = ev.Clone()
	}
	return out
}
