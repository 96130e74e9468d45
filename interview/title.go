package interview

// A finished charter is titled "# Project Charter: {name}". The name comes
// from the title when it is already there, else from the Brain Dump
// (rp1.NameIn), else from one question asked once every section is
// covered, while the budget allows (ProjectNameQuestion, its answer read by
// rp1.NameFromAnswer), else from the folder, as rp1's skeleton template
// names a new charter (ProjectName).

// ProjectNameQuestion asks for the name the Brain Dump did not give.
const ProjectNameQuestion = "What is the project called? Its name becomes the charter's title."
