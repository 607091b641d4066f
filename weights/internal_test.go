package weights

// The names the go and c formats give, for the external tests.
var (
	GoName = goName
	CName  = cName
)
