#include "serve/sample_text.h"

namespace dlab {

std::string_view servingSampleText() {
    return R"(The harbour town woke early. Before the sun had cleared the hills, the fishing boats were already
coming back through the narrow channel, their decks stacked with crates and their engines coughing in
the cold air. On the quay, the market hall opened its doors at six, and by half past the first buyers
were walking between the tables, lifting the lids of the ice boxes and arguing about the price of cod.

Mara had worked at the weather station above the town for eleven years. Every morning she climbed the
path behind the church, unlocked the small white hut and read the instruments in the same order: the
barometer, the two thermometers in their louvred box, the rain gauge, the wind vane on its mast. She
wrote each number in a ledger by hand before she typed it into the computer, because the ledger had
never once lost a day of data and the computer had lost three.

The readings went to the national service in the capital, where they joined thousands of others and
fed the models that predicted the next day's weather. Mara liked to imagine her numbers travelling
down the wire, small and exact, and becoming part of a map that a farmer or a sailor would read over
breakfast. A forecast, she told the school children who visited in spring, is only as good as the
observations it starts from.

In the autumn a storm came in from the west faster than anyone had expected. The pressure fell all
afternoon, steadily at first and then in a way that made Mara tap the glass of the barometer to be sure
it was not stuck. She called the harbour master, who called the boats, and by dusk every one of them
was tied up inside the breakwater. The wind reached ninety kilometres an hour just after midnight. In
the morning there were slates in the streets and a fallen tree across the coast road, but no one had
been hurt, and the boats were all still there.

People in the town talked about that night for years. Some said the forecast had been wrong, and some
said it had been right but late, and the old men at the café said that nobody needed a forecast who
had watched the gulls fly inland that afternoon. Mara did not argue with any of them. She wrote the
lowest pressure of the night in her ledger, underlined it twice, and added a note in the margin about
the speed of the fall, so that whoever read the page after her would know what it had looked like.

A library is a kind of weather station for ideas. It records what people thought, in the order they
thought it, and keeps the record for whoever comes next. The reading room of the town library had tall
windows that faced the sea, long oak tables and a clock that ran four minutes fast, which the
librarian refused to correct because, she said, it got people to the bus on time. Students came in
the afternoons to revise for their exams, and retired teachers came in the mornings to read the
newspapers from the capital and complain about them.

Learning a language as an adult is slow and humbling work. You begin by memorising words, then
phrases, and for a long time you translate everything in your head before you speak, so that every
sentence arrives a moment too late. Then one day you notice that you have understood a joke without
thinking about it, and the language stops being a puzzle and starts being a place you can live in.
Teachers say the trick is to practise a little every day rather than a lot once a week, and to read
things you actually want to read.

Cooking for a crowd is mostly a question of planning. A soup that serves four can be scaled to serve
forty, but the pot has to be wider, not just taller, or the bottom will burn before the top is warm.
Bread dough needs time more than it needs attention. Vegetables should be cut to the same size so they
cook evenly, and salt is best added in small amounts and tasted often, because it is easy to add more
and impossible to take any away.

The railway line along the coast was built in the last century to carry fish to the cities. Today it
carries mostly tourists in summer and students in winter. The trains are slow, and the timetable has
not changed in twenty years, but the view from the left-hand windows, where the track runs along the
top of the cliffs, is one of the finest in the country. On a clear day you can see the islands, low and
blue on the horizon, and sometimes the white sails of a yacht crossing between them.
)";
}

}  // namespace dlab
