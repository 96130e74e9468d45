package pi

// Lifecycle is a charter's lifecycle status as pi-charter keeps it in
// state.json: the same four words in .pi/charters/ (NormalizeStatus maps
// older spellings to them) and in .charters/.
type Lifecycle string

const (
	Active    Lifecycle = "active"
	Paused    Lifecycle = "paused"
	Completed Lifecycle = "completed"
	Abandoned Lifecycle = "abandoned"
)

// Lifecycles are the lifecycle statuses, in their order.
var Lifecycles = []Lifecycle{Active, Paused, Completed, Abandoned}

// Terminal reports a lifecycle nothing follows: completed or abandoned.
// Evidence is recorded for an active charter only; a terminal one's next
// step is a new charter.
func (l Lifecycle) Terminal() bool { return l == Completed || l == Abandoned }
