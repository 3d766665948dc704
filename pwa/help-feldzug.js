// help-feldzug.js — the help page's "Feldzug" chapter (issue 15, FELDZUG.md C1–C12), in the
// rulebook's words; help.js appends it to HELP_HTML. Every number here is the engine's
// (kaltfront/campaign/feldzug.py); the choices the campaign rules leave open are stated as the engine
// makes them (docs/campaign.md).

export const FELDZUG_HELP_HTML = `<h2 id="hilfe-13">13. Feldzug</h2>
<p>Im Feldzug hängen die Schlachten zusammen. Nordbund und Baltische Liga ringen um die westliche Ostsee: um Inseln, Förden und Küsten von Ostjütland bis Bornholm. Jede gewonnene Schlacht bringt Land und einen Vorteil für die nächste. Jede verlorene kostet Truppen.</p>
<h3>Die Feldzugkarte</h3>
<p>Die Karte besteht aus 30 großen Feldern, den Regionen, etwa Fehmarn, Lolland, Falster, Rügen, Schonen oder die Kieler Förde. Jede Region hat ihre eigene Schlachtkarte: Wer um Fehmarn kämpft, spielt auf der Karte Fehmarnsund.</p>
<p>Jede Seite beginnt auf ihrem Basisfeld, der Nordbund auf Kullen, die Baltische Liga in Wismar. Dort stehen alle ihre 30 Kontingentpunkte (KP). Alle anderen Regionen sind frei.</p>
<h3>Kontingentpunkte</h3>
<p>Ein KP ist keine Einheit. Die KP zeigen, wie viele Truppen eine Seite hat und wie sie sich auf ihre Regionen verteilen. Mehr als 30 KP hat eine Seite nie. In jeder eigenen Region steht mindestens 1 KP. Fällt eine Region auf 0 KP, ist sie wieder frei. Das Basisfeld bleibt immer in der Hand seiner Seite.</p>
<h3>Eine Runde in drei Schritten</h3>
<ol>
<li><b>Strategischer Schritt.</b> Beide Seiten planen geheim. Zu zweit an einem Gerät gibst du das Gerät danach weiter. Du darfst:
<ul>
<li>eine freie Region neben einer eigenen besetzen. Dazu ziehst du mindestens 1 KP hinein.</li>
<li>insgesamt höchstens 10 KP verlegen, die KP fürs Besetzen eingerechnet. Jeder KP geht genau einen Schritt weit, in eine eigene oder die eben besetzte Nachbarregion.</li>
<li>einmal angreifen: aus einer eigenen Region auf eine angrenzende gegnerische. Du legst fest, wie viele KP im Sieg nachrücken.</li>
</ul>
Dann werden beide Pläne aufgedeckt und zugleich ausgeführt. Wollen beide Seiten dieselbe freie Region besetzen, bekommt sie keine. Die KP bleiben, wo sie waren.</li>
<li><b>Schlachten.</b> Jeder Angriff ist eine Kaltfront-Partie auf der Karte der angegriffenen Region. Jede Seite spielt dort ihre eigene Fraktion. Greifen sich zwei Regionen gegenseitig an, ist das eine einzige Schlacht. Meist kämpft jede Seite zweimal: einmal als Angreifer, einmal als Verteidiger. In ungeraden Runden kommt der Angriff des Nordbunds zuerst, in geraden der der Liga.</li>
<li><b>Auswertung.</b> Nach jeder Schlacht wird abgerechnet (siehe unten).</li>
</ol>
<h3>Taktikpunkte</h3>
<p>Vor jeder Schlacht bekommt jede Seite Taktikpunkte (TP):</p>
<ul>
<li>10 TP je angefangene 100 Startguthaben auf der Schlachtkarte. Eine Blitz-Karte mit 600 gibt 60 TP.</li>
<li>+30 TP, wenn die Seite ihre letzte Schlacht gewonnen hat, −30 TP nach einer Niederlage, −10 TP nach einem Unentschieden.</li>
<li>+5 TP für jeden KP, den sie in den beiden Regionen der Schlacht mehr hat als der Gegner.</li>
</ul>
<p><b>Beispiel.</b> Du greifst mit 4 KP eine Region an, in der der Gegner 1 KP hat. Beide habt ihr eure letzte Schlacht gewonnen. Die Schlachtkarte startet mit 750 Guthaben, das sind 8 angefangene Hunderter. Du bekommst 80 + 30 + 15 = 125 TP, der Gegner 80 + 30 = 110 TP.</p>
<h3>Taktische Optionen</h3>
<p>Die TP gibst du vor der Schlacht aus. Was übrig bleibt, verfällt. Was der Gegner wählt, siehst du erst, wenn beide gewählt haben.</p>
<ul>
<li><b>Kriegskasse:</b> +5 Guthaben je TP. Die 60 TP einer Blitz-Schlacht sind also die Hälfte des Startguthabens wert, und ein gewonnenes oder verlorenes Gefecht davor macht 150 Guthaben aus.</li>
<li><b>Verstärkung:</b> eine zusätzliche Einheit zu Beginn der Schlacht, für ein Fünftel ihrer Kosten in TP. Ein Jäger kostet 20 TP, ein Kampfpanzer 140 TP. Sie steht auf deinem Hauptquartier oder einem freien eigenen Gebäude, das ihre Klasse baut. Auf Blitz-Karten gibt es nur die Blitz-Einheiten.</li>
<li><b>Reserven:</b> 65 TP, einmal je Schlacht: +1 KP auf deinem Basisfeld. Auf die Schlacht selbst wirkt das nicht. Mit 30 KP gibt es keine Reserven.</li>
</ul>
<p>Hat eine Seite weniger als 0 TP, zahlt sie mit Guthaben: 5 je fehlendem TP, aber nie unter 0.</p>
<h3>Die Auswertung</h3>
<ul>
<li>Es zählt der Ausgang der Partie nach den gewohnten Siegbedingungen. Hat die Schlachtkarte kein Rundenlimit, gilt im Feldzug eines von 20 Runden.</li>
<li><b>Unentschieden:</b> Beide Seiten verlieren 1 KP in ihrer Region der Schlacht.</li>
<li><b>Der Angreifer verliert:</b> Er verliert 1 KP in der Region, aus der er angegriffen hat, und behält sie.</li>
<li><b>Der Angreifer gewinnt:</b> Der Verteidiger räumt die Region sofort. 1 KP wird gestrichen, alle anderen ziehen in seine Nachbarregionen. Welche, entscheidet der Verteidiger, der Computer verteilt gleichmäßig. Hat er keine eigene Nachbarregion, sind alle KP dort verloren. Der Angreifer rückt mit den festgelegten KP aus der Angriffsregion ein, mindestens 1. Steht dort nur 1 KP, bleibt die eroberte Region frei.</li>
<li><b>Basisfeld:</b> Ein Basisfeld kann angegriffen, aber nie genommen werden. Verliert der Verteidiger dort, kostet ihn das 3 KP: zuerst vom Basisfeld, dann aus den angrenzenden Regionen.</li>
</ul>
<h3>Ende des Feldzugs</h3>
<ul>
<li>Hat eine Seite keine KP mehr, hat sie sofort verloren.</li>
<li>Hält eine Seite am Ende einer Runde nur noch ihr Basisfeld und hat weniger als 5 KP, hat sie verloren.</li>
<li>Nach 12 Runden gewinnt, wer mehr Regionen hält. Bei Gleichstand zählen die KP. Ist auch das gleich, endet der Feldzug unentschieden.</li>
</ul>
<h3>Gegen den Computer, zu zweit, automatisch</h3>
<p>Gegen den Computer plant er den strategischen Schritt in der gewählten Stärke und spielt jede Schlacht gegen dich. Zu zweit plant ihr nacheinander geheim. Jede Schlacht kannst du „automatisch austragen“ lassen: Dann spielt der Computer beide Seiten in der Stärke des Feldzugs, und das Ergebnis zählt wie gespielt.</p>
<h3>Nebel auf der Feldzugkarte</h3>
<p>Mit Nebel siehst du, wem jede Region gehört. Die KP einer gegnerischen Region siehst du nur, wenn sie an eine eigene grenzt. Der Computer plant nur mit dem, was seine Seite sieht.</p>
<h3>Speichern</h3>
<p>Der Feldzug wird nach jedem Schritt und jeder Phase einer Schlacht gespeichert. Er geht dort weiter, wo er stand, auch mitten in einer Schlacht. Als Datei exportiert und importiert wird er in einem Stück.</p>`;
