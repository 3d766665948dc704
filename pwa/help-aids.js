// help-aids.js — the help page's section on the three player aids of issue 13 (Rückgängig, Feuerzonen,
// Wiederholung), written in the rulebook's style: short sentences, "du", the game's own words. They go
// beyond the rulebook (D16), so they stand in a section of their own after the rulebook's chapters.

export const AIDS_HTML = `<h2 id="hilfe-hilfen">14. Hilfen: Rückgängig, Feuerzonen, Wiederholung</h2>
<h3>Rückgängig</h3>
<p>Hast du dich vertippt, nimmt „Rückgängig“ in der Kopfleiste deine letzte Aktion zurück. Auf der Tastatur geht das mit Strg + Z oder der Rücktaste. Du kannst mehrere Schritte zurückgehen, aber nur innerhalb der laufenden Phase.</p>
<p>Zurücknehmen lassen sich Bewegungen, Einladen, Ausladen und Produzieren. Aber nur, solange die Aktion dir nichts Neues gezeigt hat. Kam dabei ein Feind in Sicht oder bist du in einen Hinterhalt geraten, bleibt sie stehen. Angriffe lassen sich nie zurücknehmen: der Würfel ist gefallen. So verrät Rückgängig nichts, was du nicht auch ohne gesehen hättest.</p>
<p>Geht es nicht, sagt dir der Knopf warum, zum Beispiel „Feind gesichtet“ oder „Angriffe lassen sich nicht zurücknehmen“. Der Verlauf wird mitgespeichert; nach dem Neuladen geht Rückgängig weiter.</p>
<h3>Feuerzonen</h3>
<p>Die Angriffsphase kommt vor der Zugphase. Wer seinen Zug neben einem Feind beendet, wird beschossen, bevor er selbst schießen kann. Der Schalter „Feuerzonen“ auf der Karte färbt alle Felder rot, auf die sichtbare Feinde zu Beginn ihres nächsten Zuges schießen können. Je kräftiger das Rot, desto mehr Schaden droht. Blass orange sind die Felder, die sie erst nach ihrem nächsten Zug erreichen.</p>
<p>Hast du eine Einheit gewählt, gilt die Färbung für ihre Panzerung: Ein Kampfpanzer trifft keine Luftfahrzeuge: ein Feld, auf das nur er schießen kann, ist für deinen Kampfhubschrauber sicher. Beim Ziehen zeigt die Pfadvorschau auf bedrohten Feldern einen roten Ring und am Ziel den erwarteten Schaden, ohne Zufallsanteil.</p>
<p>Tippst du auf eine feindliche Einheit, siehst du, wohin sie ziehen kann (gelb) und wohin sie schießen kann (rot gestrichelt). Es zählt nur, was du siehst: Feinde im Nebel erscheinen nicht in den Feuerzonen.</p>
<h3>Wiederholung</h3>
<p>Nach dem Ende einer Partie bietet der Schlussbildschirm „Wiederholung ansehen“. Du siehst die ganze Partie noch einmal, ohne Nebel, mit dem Protokoll daneben. Du kannst abspielen und anhalten, Schritt für Schritt vor- und zurückgehen, das Tempo wählen und zu einer Runde springen.</p>
<p>Die letzten zehn beendeten Partien behält das Spiel unter „Spielstände“. Dort exportierst du eine Wiederholung als Datei (.kaltfront-replay.json) und importierst sie auf einem anderen Gerät. Eine laufende Partie hat noch keine Wiederholung.</p>
`;
