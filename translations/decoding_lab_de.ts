<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>ChatPage</name>
    <message>
        <source>System prompt</source>
        <translation>System-Prompt</translation>
    </message>
    <message>
        <source>Sent first, as the system message of every answer. Empty: no system message (the chat template may add its own default).</source>
        <translation>Wird zuerst gesendet, als Systemnachricht jeder Antwort. Leer: keine Systemnachricht (die Chat-Vorlage fügt eventuell ihre eigene Standardnachricht ein).</translation>
    </message>
    <message>
        <source>No system message</source>
        <translation>Keine Systemnachricht</translation>
    </message>
    <message>
        <source>Type a message; Ctrl+Return sends it</source>
        <translation>Nachricht eingeben; Strg+Return sendet sie</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Max. Tokens</translation>
    </message>
    <message>
        <source>The longest answer, in tokens</source>
        <translation>Die längste Antwort, in Tokens</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Send the message and stream the answer (Ctrl+Return)</source>
        <translation>Nachricht senden und die Antwort laufend anzeigen (Strg+Return)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the answer here; the text so far stays (Esc)</source>
        <translation>Antwort hier anhalten; der bisherige Text bleibt (Esc)</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Neu erzeugen</translation>
    </message>
    <message>
        <source>Drop the last answer and ask for a new one</source>
        <translation>Letzte Antwort verwerfen und eine neue anfordern</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Forget the whole conversation</source>
        <translation>Das ganze Gespräch vergessen</translation>
    </message>
    <message>
        <source>The Playground&apos;s sampler settings, which every answer uses. Each answer of a conversation draws from the next seed (seed, seed + 1, …); Clear starts again at the Playground&apos;s seed. Each answer&apos;s caption shows the settings it was generated with.</source>
        <translation>Die Sampler-Einstellungen des Playgrounds, die jede Antwort verwendet. Jede Antwort eines Gesprächs zieht mit dem nächsten Seed (Seed, Seed + 1, …); „Leeren“ beginnt wieder beim Seed des Playgrounds. Die Unterschrift jeder Antwort nennt die Einstellungen, mit denen sie erzeugt wurde.</translation>
    </message>
</context>
<context>
    <name>ConstraintCompiler</name>
    <message>
        <source>GBNF grammar %1</source>
        <translation>GBNF-Grammatik %1</translation>
    </message>
    <message>
        <source>JSON Schema %1</source>
        <translation>JSON-Schema %1</translation>
    </message>
    <message>
        <source>Any JSON value</source>
        <translation>Beliebiger JSON-Wert</translation>
    </message>
    <message>
        <source>Any JSON object</source>
        <translation>Beliebiges JSON-Objekt</translation>
    </message>
</context>
<context>
    <name>GpuFallback</name>
    <message>
        <source>this build of the app has no CUDA backend</source>
        <translation>dieser Build der App hat kein CUDA-Backend</translation>
    </message>
    <message>
        <source>no NVIDIA driver is installed</source>
        <translation>kein NVIDIA-Treiber installiert</translation>
    </message>
    <message>
        <source>the NVIDIA driver (CUDA %1) is too old; update it</source>
        <translation>der NVIDIA-Treiber (CUDA %1) ist zu alt; bitte aktualisieren</translation>
    </message>
    <message>
        <source>no NVIDIA GPU was found</source>
        <translation>keine NVIDIA-GPU gefunden</translation>
    </message>
    <message>
        <source>the %1 (compute capability %2) is too old for CUDA 13</source>
        <translation>die %1 (Compute Capability %2) ist zu alt für CUDA 13</translation>
    </message>
    <message>
        <source>this build has no GPU code for the %1 (compute capability %2)</source>
        <translation>dieser Build hat keinen GPU-Code für die %1 (Compute Capability %2)</translation>
    </message>
    <message>
        <source>too little GPU memory is free (%1 needed)</source>
        <translation>zu wenig freier GPU-Speicher (%1 nötig)</translation>
    </message>
    <message>
        <source>too little GPU memory is free (%1 needed, %2 free)</source>
        <translation>zu wenig freier GPU-Speicher (%1 nötig, %2 frei)</translation>
    </message>
    <message>
        <source>the GPU (compute capability %1) is too old for CUDA 13</source>
        <translation>die GPU (Compute Capability %1) ist zu alt für CUDA 13</translation>
    </message>
    <message>
        <source>this build has no GPU code for compute capability %1</source>
        <translation>dieser Build hat keinen GPU-Code für Compute Capability %1</translation>
    </message>
    <message>
        <source>Running on the CPU: %1</source>
        <translation>Läuft auf der CPU: %1</translation>
    </message>
</context>
<context>
    <name>ImageExport</name>
    <message>
        <source>cannot write the %1 file &apos;%2&apos;: %3</source>
        <translation>die %1-Datei „%2“ lässt sich nicht schreiben: %3</translation>
    </message>
    <message>
        <source>the image is empty or too large</source>
        <translation>das Bild ist leer oder zu groß</translation>
    </message>
    <message>
        <source>Exported from Decoding Lab</source>
        <translation>Exportiert aus Decoding Lab</translation>
    </message>
    <message>
        <source>the SVG painter could not start</source>
        <translation>der SVG-Painter ließ sich nicht starten</translation>
    </message>
    <message>
        <source>there is no view to export</source>
        <translation>es gibt keine Ansicht zum Exportieren</translation>
    </message>
    <message>
        <source>not enough memory for a %1 × %2 image</source>
        <translation>nicht genug Speicher für ein Bild mit %1 × %2</translation>
    </message>
</context>
<context>
    <name>KvHeatmapData</name>
    <message>
        <source>attention received</source>
        <translation>empfangene Aufmerksamkeit</translation>
    </message>
    <message>
        <source>bytes held</source>
        <translation>belegte Bytes</translation>
    </message>
    <message>
        <source>sequences sharing the block</source>
        <translation>Sequenzen, die den Block teilen</translation>
    </message>
    <message>
        <source>key norm</source>
        <translation>Norm des Schlüssels</translation>
    </message>
    <message>
        <source>value norm</source>
        <translation>Norm des Werts</translation>
    </message>
    <message>
        <source>key quantization error</source>
        <translation>Quantisierungsfehler des Schlüssels</translation>
    </message>
    <message>
        <source>value quantization error</source>
        <translation>Quantisierungsfehler des Werts</translation>
    </message>
    <message>
        <source>L%1 kv%2</source>
        <translation>S%1 kv%2</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>S%1</translation>
    </message>
</context>
<context>
    <name>PlaygroundPage</name>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Step (F10)</source>
        <translation>Schritt (F10)</translation>
    </message>
    <message>
        <source>Generate one token and show what the sampler chain did</source>
        <translation>Ein Token erzeugen und zeigen, was die Sampler-Kette getan hat</translation>
    </message>
    <message>
        <source>Forget the generated tokens and start again from the prompt</source>
        <translation>Die erzeugten Tokens verwerfen und wieder beim Prompt beginnen</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>Sampler</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>The text the model continues. Editing it starts over.</source>
        <translation>Der Text, den das Modell fortsetzt. Eine Änderung beginnt von vorn.</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>Start (F5)</translation>
    </message>
    <message>
        <source>Generate tokens one after another until Stop, the end of the text or the run length</source>
        <translation>Tokens nacheinander erzeugen – bis „Stopp“, bis zum Textende oder bis die Lauflänge erreicht ist</translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation>Stopp (Esc)</translation>
    </message>
    <message>
        <source>Stop a run after the current token</source>
        <translation>Den Lauf nach dem aktuellen Token anhalten</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Von vorn</translation>
    </message>
    <message>
        <source>Tokens per run</source>
        <translation>Tokens pro Lauf</translation>
    </message>
    <message>
        <source>How many tokens Run generates at most</source>
        <translation>Wie viele Tokens „Start“ höchstens erzeugt</translation>
    </message>
    <message>
        <source>Greedy loop demo</source>
        <translation>Greedy-Schleife vorführen</translation>
    </message>
    <message>
        <source>Greedy decoding (temperature 0, no penalties) on a prompt where it falls into a loop; the repeated span is highlighted</source>
        <translation>Greedy-Decoding (Temperatur 0, keine Strafen) mit einem Prompt, bei dem es in eine Schleife gerät; der wiederholte Abschnitt wird hervorgehoben</translation>
    </message>
    <message>
        <source>Divides the logits by T before softmax: below 1 the favourite gets likelier (0 = always the most likely token), above 1 the distribution flattens.</source>
        <translation>Teilt die Logits vor Softmax durch T: Unter 1 wird der Favorit wahrscheinlicher (0 = immer das wahrscheinlichste Token), über 1 wird die Verteilung flacher.</translation>
    </message>
    <message>
        <source>Keeps only the k most likely tokens (0 = off).</source>
        <translation>Behält nur die k wahrscheinlichsten Tokens (0 = aus).</translation>
    </message>
    <message>
        <source>Keeps the smallest set of most likely tokens whose probabilities add up to p (1 = off).</source>
        <translation>Behält die kleinste Menge der wahrscheinlichsten Tokens, deren Wahrscheinlichkeiten zusammen p erreichen (1 = aus).</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drops every token less likely than min-p times the most likely one (0 = off).</source>
        <translation>Verwirft jedes Token, das weniger wahrscheinlich ist als min-p mal das wahrscheinlichste (0 = aus).</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>Wiederholungsstrafe</translation>
    </message>
    <message>
        <source>Makes tokens that already appeared less likely: positive logits are divided by it, negative ones multiplied (1 = off).</source>
        <translation>Macht bereits vorgekommene Tokens unwahrscheinlicher: Positive Logits werden durch sie geteilt, negative mit ihr multipliziert (1 = aus).</translation>
    </message>
    <message>
        <source>Frequency penalty</source>
        <translation>Häufigkeitsstrafe</translation>
    </message>
    <message>
        <source>Subtracts this from a token&apos;s logit once for every time it already appeared (0 = off).</source>
        <translation>Zieht diesen Wert für jedes bisherige Vorkommen eines Tokens einmal von seinem Logit ab (0 = aus).</translation>
    </message>
    <message>
        <source>Presence penalty</source>
        <translation>Präsenzstrafe</translation>
    </message>
    <message>
        <source>Subtracts this from the logit of every token that appeared at least once (0 = off).</source>
        <translation>Zieht diesen Wert vom Logit jedes Tokens ab, das mindestens einmal vorkam (0 = aus).</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Starts the random draws: the same seed and settings give the same text. Takes effect at Reset.</source>
        <translation>Startwert der Zufallsziehungen: Gleicher Seed und gleiche Einstellungen ergeben denselben Text. Wirkt ab dem nächsten „Von vorn“.</translation>
    </message>
    <message>
        <source>Defaults</source>
        <translation>Standardwerte</translation>
    </message>
    <message>
        <source>Put every sampler setting and the stage order back to the defaults</source>
        <translation>Alle Sampler-Einstellungen und die Reihenfolge der Stufen auf die Standardwerte zurücksetzen</translation>
    </message>
    <message>
        <source>Stage order</source>
        <translation>Reihenfolge der Stufen</translation>
    </message>
    <message>
        <source>The order in which the stages change the distribution. Drag a stage to move it; untick it to switch it off.</source>
        <translation>Die Reihenfolge, in der die Stufen die Verteilung verändern. Eine Stufe ziehen, um sie zu verschieben; Häkchen entfernen, um sie abzuschalten.</translation>
    </message>
    <message>
        <source>Drag to reorder; untick to switch a stage off. The order matters: top-p after a hot temperature keeps more tokens than before it.</source>
        <translation>Ziehen zum Umsortieren; Häkchen entfernen schaltet eine Stufe ab. Die Reihenfolge zählt: Top-p nach einer hohen Temperatur behält mehr Tokens als davor.</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Kandidaten</translation>
    </message>
    <message>
        <source>What each stage did</source>
        <translation>Was jede Stufe getan hat</translation>
    </message>
    <message>
        <source>Generated text</source>
        <translation>Erzeugter Text</translation>
    </message>
    <message>
        <source>Each token&apos;s background shows how likely it was. Hover a token to see the alternatives; click it to continue from another one.</source>
        <translation>Der Hintergrund jedes Tokens zeigt, wie wahrscheinlich es war. Mit der Maus auf ein Token zeigen, um die Alternativen zu sehen; anklicken, um mit einem anderen fortzufahren.</translation>
    </message>
</context>
<context>
    <name>SamplerWaterfall</name>
    <message>
        <source>Raw</source>
        <translation>Roh</translation>
    </message>
    <message>
        <source>The model&apos;s own prediction: the softmax of its logits before any sampler stage.</source>
        <translation>Die eigene Vorhersage des Modells: Softmax seiner Logits vor jeder Sampler-Stufe.</translation>
    </message>
    <message>
        <source>Logit bias</source>
        <translation>Logit-Bias</translation>
    </message>
    <message>
        <source>Adds a fixed amount to the logits of chosen tokens, making them more or less likely (minus infinity bans a token).</source>
        <translation>Addiert einen festen Betrag zu den Logits ausgewählter Tokens und macht sie so wahrscheinlicher oder unwahrscheinlicher (minus unendlich sperrt ein Token).</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>Wiederholungsstrafe</translation>
    </message>
    <message>
        <source>Makes tokens that already appeared less likely (positive logits divided by the penalty, negative ones multiplied).</source>
        <translation>Macht bereits vorgekommene Tokens unwahrscheinlicher (positive Logits werden durch die Strafe geteilt, negative mit ihr multipliziert).</translation>
    </message>
    <message>
        <source>Frequency / presence</source>
        <translation>Häufigkeit / Präsenz</translation>
    </message>
    <message>
        <source>Subtracts the frequency penalty once per earlier occurrence and the presence penalty once if the token appeared at all.</source>
        <translation>Zieht die Häufigkeitsstrafe einmal pro früherem Vorkommen ab und die Präsenzstrafe einmal, wenn das Token überhaupt vorkam.</translation>
    </message>
    <message>
        <source>No-repeat n-gram</source>
        <translation>N-Gramm-Sperre</translation>
    </message>
    <message>
        <source>Bans every token that would repeat a run of n tokens that already appears in the text.</source>
        <translation>Sperrt jedes Token, das eine Folge von n Tokens wiederholen würde, die schon im Text steht.</translation>
    </message>
    <message>
        <source>DRY</source>
        <translation>DRY</translation>
    </message>
    <message>
        <source>&quot;Don&apos;t repeat yourself&quot;: penalises a token that would continue a repeat of earlier text, more strongly the longer the repeated run already is.</source>
        <translation>„Don&apos;t repeat yourself“: Bestraft ein Token, das eine Wiederholung früheren Textes fortsetzen würde – umso stärker, je länger die wiederholte Folge schon ist.</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Divides every logit by T: below 1 the likely tokens get likelier, above 1 the distribution flattens.</source>
        <translation>Teilt jedes Logit durch T: Unter 1 werden wahrscheinliche Tokens noch wahrscheinlicher, über 1 wird die Verteilung flacher.</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Keeps only the k most likely tokens and renormalises them.</source>
        <translation>Behält nur die k wahrscheinlichsten Tokens und normiert sie neu.</translation>
    </message>
    <message>
        <source>Top-p (nucleus)</source>
        <translation>Top-p (Nucleus)</translation>
    </message>
    <message>
        <source>Keeps the smallest set of most likely tokens whose probabilities add up to p.</source>
        <translation>Behält die kleinste Menge der wahrscheinlichsten Tokens, deren Wahrscheinlichkeiten zusammen p erreichen.</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drops every token less likely than min-p times the most likely token.</source>
        <translation>Verwirft jedes Token, das weniger wahrscheinlich ist als min-p mal das wahrscheinlichste Token.</translation>
    </message>
    <message>
        <source>Typical</source>
        <translation>Typical</translation>
    </message>
    <message>
        <source>Keeps the tokens whose surprise is closest to the average surprise (the entropy), until their probabilities add up to p.</source>
        <translation>Behält die Tokens, deren Überraschung der durchschnittlichen Überraschung (der Entropie) am nächsten liegt, bis ihre Wahrscheinlichkeiten zusammen p erreichen.</translation>
    </message>
    <message>
        <source>XTC</source>
        <translation>XTC</translation>
    </message>
    <message>
        <source>&quot;Exclude top choices&quot;: now and then removes every token above the threshold except the least likely of them, so the text gets less predictable.</source>
        <translation>„Exclude Top Choices“: Entfernt ab und zu alle Tokens über der Schwelle bis auf das unwahrscheinlichste von ihnen, sodass der Text weniger vorhersehbar wird.</translation>
    </message>
    <message>
        <source>Top-nσ</source>
        <translation>Top-nσ</translation>
    </message>
    <message>
        <source>Keeps only the tokens whose logit lies within n standard deviations of the highest logit.</source>
        <translation>Behält nur die Tokens, deren Logit höchstens n Standardabweichungen unter dem höchsten Logit liegt.</translation>
    </message>
    <message>
        <source>Moves its cut-off after every token so that the average surprise of the chosen tokens stays near a target value τ.</source>
        <translation>Verschiebt seine Schwelle nach jedem Token so, dass die durchschnittliche Überraschung der gewählten Tokens nahe am Zielwert τ bleibt.</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>Bias</translation>
    </message>
    <message>
        <source>Rep. penalty</source>
        <translation>Wdh.-Strafe</translation>
    </message>
    <message>
        <source>Freq./pres.</source>
        <translation>Häuf./Präs.</translation>
    </message>
    <message>
        <source>No n-gram</source>
        <translation>N-Gramm-Sperre</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>Temp.</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Mirostat 2</source>
        <translation>Mirostat 2</translation>
    </message>
    <message>
        <source>Mirostat 1</source>
        <translation>Mirostat 1</translation>
    </message>
    <message>
        <source>Estimates how fast the probabilities fall off (Zipf&apos;s law) from the best m tokens and keeps as many as give the target surprise τ, learning after every token.</source>
        <translation>Schätzt aus den besten m Tokens, wie schnell die Wahrscheinlichkeiten abfallen (Zipfsches Gesetz), und behält so viele, wie die Ziel-Überraschung τ ergeben; lernt nach jedem Token.</translation>
    </message>
    <message>
        <source>Grammar (constraint)</source>
        <translation>Grammatik (Vorgabe)</translation>
    </message>
    <message>
        <source>Constrained decoding: forbids every token that would make the text so far stop being a valid start of the grammar or JSON Schema, and the end of the text until the grammar is complete. The probability it removes is the price of the constraint.</source>
        <translation>Eingeschränktes Dekodieren: verbietet jedes Token, mit dem der bisherige Text kein gültiger Anfang der Grammatik oder des JSON-Schemas mehr wäre, und das Textende, solange die Grammatik nicht vollständig ist. Die Wahrscheinlichkeit, die sie entfernt, ist der Preis der Vorgabe.</translation>
    </message>
    <message>
        <source>Grammar</source>
        <translation>Grammatik</translation>
    </message>
</context>
<context>
    <name>ServingGantt</name>
    <message>
        <source>request %1: not finished yet</source>
        <translation>Anfrage %1: noch nicht fertig</translation>
    </message>
    <message>
        <source>request %1: %2</source>
        <translation>Anfrage %1: %2</translation>
    </message>
    <message>
        <source>request %1: %2 prompt tokens (%3 from the prefix cache), %4 generated
arrived at %5 ms, admitted at %6 ms (waited %7 ms)
first token at %8 ms (TTFT %9 ms), finished at %10 ms</source>
        <translation>Anfrage %1: %2 Prompt-Tokens (%3 aus dem Präfix-Cache), %4 erzeugt
angekommen bei %5 ms, zugelassen bei %6 ms (%7 ms gewartet)
erstes Token bei %8 ms (TTFT %9 ms), fertig bei %10 ms</translation>
    </message>
    <message>
        <source>ms since the run started</source>
        <translation>ms seit dem Start des Laufs</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
</context>
<context>
    <name>ShortcutCollector</name>
    <message>
        <source>Whole window</source>
        <translation>Ganzes Fenster</translation>
    </message>
    <message>
        <source>%1 menu</source>
        <translation>Menü %1</translation>
    </message>
    <message>
        <source>(no description)</source>
        <translation>(keine Beschreibung)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::AdvancedSamplerBox</name>
    <message>
        <source>Penalty window</source>
        <translation>Strafen-Fenster</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Keeps the tokens whose surprise is closest to the distribution&apos;s entropy until their probabilities add up to p (1 = off).</source>
        <translation>Behält die Tokens, deren Überraschung der Entropie der Verteilung am nächsten liegt, bis ihre Wahrscheinlichkeiten zusammen p ergeben (1 = aus).</translation>
    </message>
    <message>
        <source>n (σ)</source>
        <translation>n (σ)</translation>
    </message>
    <message>
        <source>Keeps the tokens whose logit is within n standard deviations of the best logit.</source>
        <translation>Behält die Tokens, deren Logit höchstens n Standardabweichungen unter dem besten Logit liegt.</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>How often XTC acts: at each step, with this probability, it removes every token above the threshold except the least likely of them.</source>
        <translation>Wie oft XTC eingreift: in jedem Schritt entfernt es mit dieser Wahrscheinlichkeit alle Tokens über der Schwelle außer dem unwahrscheinlichsten von ihnen.</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>Tokens at least this likely count as top choices (above 0.5 at most one can, so nothing is removed).</source>
        <translation>Tokens mit mindestens dieser Wahrscheinlichkeit gelten als Favoriten (über 0,5 kann es höchstens einen geben, dann wird nichts entfernt).</translation>
    </message>
    <message>
        <source>Multiplier</source>
        <translation>Faktor</translation>
    </message>
    <message>
        <source>Strength of the DRY penalty on a token that would extend a repeated sequence.</source>
        <translation>Stärke der DRY-Strafe für ein Token, das eine wiederholte Folge verlängern würde.</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>The penalty grows as base^(length − allowed length) with the repeat&apos;s length.</source>
        <translation>Die Strafe wächst mit der Länge der Wiederholung wie Basis^(Länge − erlaubte Länge).</translation>
    </message>
    <message>
        <source>Allowed length</source>
        <translation>Erlaubte Länge</translation>
    </message>
    <message>
        <source>Repeats up to this many tokens are not penalised.</source>
        <translation>Wiederholungen bis zu so vielen Tokens werden nicht bestraft.</translation>
    </message>
    <message>
        <source>Look back</source>
        <translation>Rückblick</translation>
    </message>
    <message>
        <source>How many recent tokens DRY searches for repeats (−1 = the whole text).</source>
        <translation>Wie viele der letzten Tokens DRY nach Wiederholungen durchsucht (−1 = der ganze Text).</translation>
    </message>
    <message>
        <source>Target surprise τ (bits)</source>
        <translation>Ziel-Überraschung τ (Bit)</translation>
    </message>
    <message>
        <source>The surprise per token Mirostat steers towards: lower is more focused, higher more varied.</source>
        <translation>Die Überraschung pro Token, auf die Mirostat hinsteuert: niedriger ist fokussierter, höher abwechslungsreicher.</translation>
    </message>
    <message>
        <source>Learning rate η</source>
        <translation>Lernrate η</translation>
    </message>
    <message>
        <source>How fast Mirostat corrects its cut-off after each token.</source>
        <translation>Wie schnell Mirostat seine Grenze nach jedem Token nachstellt.</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Bans any token that would repeat an n-gram already in the text.</source>
        <translation>Sperrt jedes Token, das ein bereits im Text vorhandenes N-Gramm wiederholen würde.</translation>
    </message>
    <message>
        <source>Last n tokens</source>
        <translation>Letzte n Tokens</translation>
    </message>
    <message>
        <source>How many recent tokens the repetition, frequency and presence penalties look at (−1 = the whole text, 0 = penalties off).</source>
        <translation>Wie viele der letzten Tokens die Wiederholungs-, Häufigkeits- und Präsenzstrafe betrachten (−1 = der ganze Text, 0 = Strafen aus).</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>e.g. 198:-2, 13:ban</source>
        <translation>z. B. 198:-2, 13:ban</translation>
    </message>
    <message>
        <source>TOKEN_ID:BIAS, separated by commas.</source>
        <translation>TOKEN_ID:BIAS, durch Kommas getrennt.</translation>
    </message>
    <message>
        <source>Token ids (the Candidates table shows them) with a number added to their logit; “ban” removes the token. Right-click a candidate to ban it.</source>
        <translation>Token-IDs (die Tabelle „Kandidaten“ zeigt sie) mit einer Zahl, die zu ihrem Logit addiert wird; „ban“ entfernt das Token. Rechtsklick auf einen Kandidaten sperrt ihn.</translation>
    </message>
    <message>
        <source>Tokens for the fit m</source>
        <translation>Tokens für die Schätzung m</translation>
    </message>
    <message>
        <source>How many of the most likely tokens Mirostat 1 uses to estimate how fast the probabilities fall off.</source>
        <translation>Wie viele der wahrscheinlichsten Tokens Mirostat 1 nutzt, um zu schätzen, wie schnell die Wahrscheinlichkeiten abfallen.</translation>
    </message>
    <message>
        <source>Mirostat replaces top-k and top-p: use it with its order preset (Mirostat 1 or 2, as llama.cpp&apos;s mirostat and mirostat-v2).</source>
        <translation>Mirostat ersetzt Top-k und Top-p: zusammen mit seiner Reihenfolge verwenden (Mirostat 1 oder 2, wie mirostat und mirostat-v2 in llama.cpp).</translation>
    </message>
</context>
<context>
    <name>dlab::ui::BeamTreePanel</name>
    <message>
        <source>“%1” was cut at its step (rank %2, p %3): it was never expanded.</source>
        <translation>„%1“ wurde in seinem Schritt verworfen (Rang %2, p %3): es wurde nie expandiert.</translation>
    </message>
    <message>
        <source>“%1” was not expanded (the search ended there).</source>
        <translation>„%1“ wurde nicht expandiert (die Suche endete dort).</translation>
    </message>
    <message>
        <source>the prompt</source>
        <translation>der Prompt</translation>
    </message>
    <message numerus="yes">
        <source>Diverse beams (%n group(s))</source>
        <translation>
            <numerusform>Diverse Strahlen (%Ln Gruppe)</numerusform>
            <numerusform>Diverse Strahlen (%Ln Gruppen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>Strahlsuche</translation>
    </message>
    <message>
        <source>final beams: overlap %1 · shared start %2 tokens · distinct-2 %3 · %4 ms</source>
        <translation>finale Strahlen: Überlappung %1 · gemeinsamer Anfang %2 Tokens · distinct-2 %3 · %4 ms</translation>
    </message>
    <message>
        <source>Beam search tree</source>
        <translation>Suchbaum der Strahlsuche</translation>
    </message>
    <message>
        <source>&lt;b&gt;Beam search on the prompt above&lt;/b&gt;</source>
        <translation>&lt;b&gt;Strahlsuche auf dem Prompt oben&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Width k</source>
        <translation>&amp;Breite k</translation>
    </message>
    <message>
        <source>&amp;Length penalty α</source>
        <translation>&amp;Längenstrafe α</translation>
    </message>
    <message>
        <source>score = log-prob / length^α: above 0 favours longer hypotheses, below 0 shorter ones</source>
        <translation>Score = Log-Prob / Länge^α: über 0 werden längere Hypothesen bevorzugt, unter 0 kürzere</translation>
    </message>
    <message>
        <source>never (exact)</source>
        <translation>nie (exakt)</translation>
    </message>
    <message>
        <source>&amp;Groups</source>
        <translation>&amp;Gruppen</translation>
    </message>
    <message>
        <source>Diverse beams</source>
        <translation>Diverse Strahlen</translation>
    </message>
    <message>
        <source>◀</source>
        <translation>◀</translation>
    </message>
    <message>
        <source>One expansion back (←)</source>
        <translation>Eine Expansion zurück (←)</translation>
    </message>
    <message>
        <source>▶</source>
        <translation>▶</translation>
    </message>
    <message>
        <source>One expansion forward (→)</source>
        <translation>Eine Expansion vor (→)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>Play the search one expansion at a time (Space)</source>
        <translation>Die Suche Expansion für Expansion abspielen (Leertaste)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>The whole tree in view (0)</source>
        <translation>Den ganzen Baum zeigen (0)</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+wheel)</source>
        <translation>Vergrößern (Strg+Mausrad)</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+wheel)</source>
        <translation>Verkleinern (Strg+Mausrad)</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>Schritt %1 / %2</translation>
    </message>
    <message>
        <source>heuristic</source>
        <translation>heuristisch</translation>
    </message>
    <message>
        <source>&amp;Diverse beams too</source>
        <translation>D&amp;iverse Strahlen dazu</translation>
    </message>
    <message>
        <source>Diverse (group) beam search, Vijayakumar et al. 2016, beside plain beams: the width split into groups; a group loses the diversity penalty for each earlier group that chose the same token at this step</source>
        <translation>Diverse (Gruppen-)Strahlsuche nach Vijayakumar et al. 2016, neben der normalen Strahlsuche: Die Breite wird auf Gruppen aufgeteilt; eine Gruppe verliert die Diversitätsstrafe für jede frühere Gruppe, die in diesem Schritt dasselbe Token gewählt hat</translation>
    </message>
    <message>
        <source>Searching… %1 %</source>
        <translation>Suche… %1 %</translation>
    </message>
    <message>
        <source>After “%1” (path log-prob %2, score %3): the model&apos;s next-token distribution, entropy %4 bits</source>
        <translation>Nach „%1“ (Pfad-Log-Prob %2, Score %3): die Verteilung des nächsten Tokens laut Modell, Entropie %4 Bit</translation>
    </message>
    <message>
        <source>when k have finished</source>
        <translation>wenn k fertig sind</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s early_stopping: heuristic (False, the default) stops when no running beam can beat the finished ones at its length; &quot;when k have finished&quot; (True) as soon as k hypotheses ended; never: only when none could at any length</source>
        <translation>early_stopping von Hugging Face: heuristisch (False, der Standard) endet, wenn kein laufender Strahl die fertigen bei seiner Länge noch schlagen kann; „wenn k fertig sind“ (True), sobald k Hypothesen beendet sind; nie: erst, wenn keiner sie bei irgendeiner Länge schlagen könnte</translation>
    </message>
    <message>
        <source>Click a node in the tree to see the distribution it was expanded from.</source>
        <translation>Einen Knoten im Baum anklicken, um die Verteilung zu sehen, aus der er expandiert wurde.</translation>
    </message>
    <message>
        <source>The tree appears here: Search runs a beam search on the prompt above.</source>
        <translation>Hier erscheint der Baum: „Suchen“ führt eine Strahlsuche auf dem Prompt oben aus.</translation>
    </message>
    <message>
        <source>Earl&amp;y stopping</source>
        <translation>&amp;Frühes Beenden</translation>
    </message>
    <message>
        <source>Max toke&amp;ns</source>
        <translation>Max. T&amp;okens</translation>
    </message>
    <message>
        <source>D&amp;iversity penalty</source>
        <translation>Di&amp;versitätsstrafe</translation>
    </message>
    <message>
        <source>Sear&amp;ch</source>
        <translation>S&amp;uchen</translation>
    </message>
</context>
<context>
    <name>dlab::ui::CandidateTableModel</name>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>chosen</source>
        <translation>gewählt</translation>
    </message>
    <message>
        <source>The step picked this token.</source>
        <translation>Der Schritt hat dieses Token gewählt.</translation>
    </message>
    <message>
        <source>A stage of the sampler chain removed this token: it cannot be picked at this step.</source>
        <translation>Eine Stufe der Sampler-Kette hat dieses Token entfernt: Es kann in diesem Schritt nicht gewählt werden.</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Token id</source>
        <translation>Token-ID</translation>
    </message>
    <message>
        <source>Logit</source>
        <translation>Logit</translation>
    </message>
    <message>
        <source>p raw</source>
        <translation>p roh</translation>
    </message>
    <message>
        <source>p after chain</source>
        <translation>p nach Kette</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>Behalten</translation>
    </message>
    <message>
        <source>Position of the token when all candidates are sorted by their raw logit.</source>
        <translation>Position des Tokens, wenn alle Kandidaten nach ihrem rohen Logit sortiert sind.</translation>
    </message>
    <message>
        <source>The text the token adds (␣ is a space, ↵ a new line).</source>
        <translation>Der Text, den das Token hinzufügt (␣ ist ein Leerzeichen, ↵ ein Zeilenumbruch).</translation>
    </message>
    <message>
        <source>The token&apos;s number in the model&apos;s vocabulary.</source>
        <translation>Die Nummer des Tokens im Vokabular des Modells.</translation>
    </message>
    <message>
        <source>The model&apos;s raw score for the token, before any sampler stage.</source>
        <translation>Die rohe Bewertung des Tokens durch das Modell, vor jeder Sampler-Stufe.</translation>
    </message>
    <message>
        <source>The probability softmax gives the raw logits, before the sampler chain.</source>
        <translation>Die Wahrscheinlichkeit, die Softmax den rohen Logits zuordnet, vor der Sampler-Kette.</translation>
    </message>
    <message>
        <source>The probability after every stage of the sampler chain; the step samples from this.</source>
        <translation>Die Wahrscheinlichkeit nach allen Stufen der Sampler-Kette; aus ihr zieht der Schritt.</translation>
    </message>
    <message>
        <source>Whether the token survived the sampler chain or a stage removed it.</source>
        <translation>Ob das Token die Sampler-Kette überstanden hat oder eine Stufe es entfernt hat.</translation>
    </message>
    <message>
        <source>forbidden</source>
        <translation>verboten</translation>
    </message>
    <message>
        <source>The constraint&apos;s grammar forbade this token: the text would no longer fit it.</source>
        <translation>Die Grammatik der Vorgabe hat dieses Token verboten: Der Text passte sonst nicht mehr zu ihr.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ChatController</name>
    <message>
        <source>No model is loaded.</source>
        <translation>Es ist kein Modell geladen.</translation>
    </message>
    <message>
        <source>An answer needs at least 1 token (max tokens is %1).</source>
        <translation>Eine Antwort braucht mindestens 1 Token (max. Tokens ist %1).</translation>
    </message>
    <message>
        <source>The conversation is %1 tokens long but the model&apos;s context holds only %2 positions. Clear the chat or shorten the system prompt, then try again.</source>
        <translation>Das Gespräch ist %1 Tokens lang, der Kontext des Modells fasst aber nur %2 Positionen. Chat leeren oder den System-Prompt kürzen und es erneut versuchen.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ChatPage</name>
    <message>
        <source>You</source>
        <translation>Du</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Reading the prompt…</source>
        <translation>Prompt wird gelesen…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>end of answer</source>
        <translation>Ende der Antwort</translation>
    </message>
    <message>
        <source>max tokens reached</source>
        <translation>Höchstzahl an Tokens erreicht</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>Kontext voll</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>Answering a prompt of %1 tokens… (Esc stops)</source>
        <translation>Beantworte einen Prompt aus %1 Tokens… (Esc hält an)</translation>
    </message>
    <message>
        <source>Waiting for the model…</source>
        <translation>Warte auf das Modell…</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>Kein Modell geladen.</translation>
    </message>
    <message numerus="yes">
        <source>Generating… %n token(s)</source>
        <translation>
            <numerusform>Erzeuge… %Ln Token</numerusform>
            <numerusform>Erzeuge… %Ln Tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>TTFT %1 ms · %2 tokens/s · %n token(s) · %3</source>
        <translation>
            <numerusform>TTFT %1 ms · %2 Tokens/s · %Ln Token · %3</numerusform>
            <numerusform>TTFT %1 ms · %2 Tokens/s · %Ln Tokens · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Sampled with %1</source>
        <translation>Gesampelt mit %1</translation>
    </message>
    <message>
        <source>greedy (temperature 0)</source>
        <translation>greedy (Temperatur 0)</translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation>Temperatur %1</translation>
    </message>
    <message>
        <source>top-k %1</source>
        <translation>Top-k %1</translation>
    </message>
    <message>
        <source>top-p %1</source>
        <translation>Top-p %1</translation>
    </message>
    <message>
        <source>min-p %1</source>
        <translation>Min-p %1</translation>
    </message>
    <message>
        <source>typical-p %1</source>
        <translation>Typical-p %1</translation>
    </message>
    <message>
        <source>top-n-σ %1</source>
        <translation>Top-n-σ %1</translation>
    </message>
    <message>
        <source>XTC %1 / %2</source>
        <translation>XTC %1 / %2</translation>
    </message>
    <message>
        <source>Mirostat τ %1</source>
        <translation>Mirostat τ %1</translation>
    </message>
    <message>
        <source>repetition penalty %1</source>
        <translation>Wiederholungsstrafe %1</translation>
    </message>
    <message>
        <source>frequency penalty %1</source>
        <translation>Häufigkeitsstrafe %1</translation>
    </message>
    <message>
        <source>presence penalty %1</source>
        <translation>Präsenzstrafe %1</translation>
    </message>
    <message>
        <source>DRY %1</source>
        <translation>DRY %1</translation>
    </message>
    <message>
        <source>no repeated %1-grams</source>
        <translation>keine wiederholten %1-Gramme</translation>
    </message>
    <message numerus="yes">
        <source>%n logit bias(es)</source>
        <translation>
            <numerusform>%Ln Logit-Bias</numerusform>
            <numerusform>%Ln Logit-Biases</numerusform>
        </translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>Seed %1</translation>
    </message>
    <message>
        <source>Sampling: %1 — set on the Playground</source>
        <translation>Sampling: %1 — eingestellt im Playground</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>&amp;Chat</translation>
    </message>
    <message>
        <source>Talk to the model with its chat template, with the playground&apos;s sampler settings</source>
        <translation>Mit dem Modell chatten – über seine Chat-Vorlage und mit den Sampler-Einstellungen des Playgrounds</translation>
    </message>
    <message>
        <source>Positions the conversation uses, of the context the chat allows</source>
        <translation>Positionen, die das Gespräch belegt, vom Kontext, den der Chat erlaubt</translation>
    </message>
    <message>
        <source>JSON mode</source>
        <translation>JSON-Modus</translation>
    </message>
    <message>
        <source>Constrain every reply to one JSON object: at each step the sampler forbids every token that would break it (the prompt is not constrained). Applies from the next reply.</source>
        <translation>Jede Antwort auf ein JSON-Objekt beschränken: Bei jedem Schritt verbietet der Sampler jedes Token, das es zerstören würde (der Prompt wird nicht eingeschränkt). Gilt ab der nächsten Antwort.</translation>
    </message>
    <message>
        <source>JSON mode: one valid JSON object</source>
        <translation>JSON-Modus: ein gültiges JSON-Objekt</translation>
    </message>
    <message>
        <source>JSON mode: not a JSON object</source>
        <translation>JSON-Modus: kein JSON-Objekt</translation>
    </message>
    <message>
        <source>JSON mode: the object is not finished</source>
        <translation>JSON-Modus: das Objekt ist nicht fertig</translation>
    </message>
    <message>
        <source>JSON mode: each reply is one JSON object</source>
        <translation>JSON-Modus: jede Antwort ist ein JSON-Objekt</translation>
    </message>
    <message>
        <source>seed %1 (the Playground&apos;s seed %2 + %3, one per answer so far)</source>
        <translation>Seed %1 (Seed %2 des Playgrounds + %3, eins je bisheriger Antwort)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ColumnEditor</name>
    <message>
        <source>Strategy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>Greedy</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Sampling</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>Strahlsuche</translation>
    </message>
    <message>
        <source>Diverse beam search</source>
        <translation>Diverse Strahlsuche</translation>
    </message>
    <message>
        <source>heuristic (HF default)</source>
        <translation>heuristisch (HF-Standard)</translation>
    </message>
    <message>
        <source>as soon as k are finished</source>
        <translation>sobald k fertig sind</translation>
    </message>
    <message>
        <source>never (exact)</source>
        <translation>nie (exakt)</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Top-k (0 = off)</source>
        <translation>Top-k (0 = aus)</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Beam width k</source>
        <translation>Strahlbreite k</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Gruppen</translation>
    </message>
    <message>
        <source>Diversity penalty</source>
        <translation>Diversitätsstrafe</translation>
    </message>
    <message>
        <source>Length penalty α</source>
        <translation>Längenstrafe α</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>Frühes Beenden</translation>
    </message>
    <message>
        <source>Repetition penalty (1 = off)</source>
        <translation>Wiederholungsstrafe (1 = aus)</translation>
    </message>
    <message>
        <source>No-repeat n-gram (0 = off)</source>
        <translation>No-Repeat-N-Gramm (0 = aus)</translation>
    </message>
    <message>
        <source>Run spec</source>
        <translation>Lauf-Spezifikation</translation>
    </message>
    <message>
        <source>The run spec, as decoding-lab-cli compare --run reads it; every key works here, e.g. sample:t=0.8,dry=0.8,order=llama.cpp (DRY is a stage of the llama.cpp order) or beam:k=8,lp=0.6,es=never</source>
        <translation>Die Lauf-Spezifikation, wie decoding-lab-cli compare --run sie liest; jeder Schlüssel funktioniert hier, z. B. sample:t=0.8,dry=0.8,order=llama.cpp (DRY ist eine Stufe der Reihenfolge llama.cpp) oder beam:k=8,lp=0.6,es=never</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ComparisonTableModel</name>
    <message>
        <source>Strategy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <source>Deterministic?</source>
        <translation>Deterministisch?</translation>
    </message>
    <message>
        <source>Diverse?</source>
        <translation>Vielfältig?</translation>
    </message>
    <message>
        <source>Finds the likeliest text?</source>
        <translation>Findet den wahrscheinlichsten Text?</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <source>Typical use</source>
        <translation>Typische Verwendung</translation>
    </message>
    <message>
        <source>Tasks with one right answer: translation, summaries</source>
        <translation>Aufgaben mit einer richtigen Antwort: Übersetzung, Zusammenfassungen</translation>
    </message>
    <message>
        <source>Tasks with one right answer (wider beams find likelier text)</source>
        <translation>Aufgaben mit einer richtigen Antwort (breitere Strahlen finden wahrscheinlicheren Text)</translation>
    </message>
    <message>
        <source>Short factual answers: on long text it loops (it did here)</source>
        <translation>Kurze Faktenantworten: bei langem Text gerät es in Schleifen (hier auch)</translation>
    </message>
    <message>
        <source>Short factual answers, tests that need the same output every time</source>
        <translation>Kurze Faktenantworten, Tests, die jedes Mal dieselbe Ausgabe brauchen</translation>
    </message>
    <message>
        <source>Open-ended text: chat, stories, brainstorming</source>
        <translation>Offener Text: Chat, Geschichten, Brainstorming</translation>
    </message>
    <message>
        <source>Chat with little variation (the runs overlap a lot)</source>
        <translation>Chat mit wenig Variation (die Läufe überlappen stark)</translation>
    </message>
    <message numerus="yes">
        <source>yes: %n runs identical</source>
        <translation>
            <numerusform>ja: %Ln Lauf identisch</numerusform>
            <numerusform>ja: %Ln Läufe identisch</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>no: the %n runs differ</source>
        <translation>
            <numerusform>nein: der %Ln Lauf weicht ab</numerusform>
            <numerusform>nein: die %Ln Läufe unterscheiden sich</numerusform>
        </translation>
    </message>
    <message>
        <source>yes: as likely as a width-%1 beam&apos;s best</source>
        <translation>ja: so wahrscheinlich wie das Beste eines Strahls der Breite %1</translation>
    </message>
    <message>
        <source>yes: %1 nats likelier than a width-%2 beam&apos;s best</source>
        <translation>ja: %1 Nat wahrscheinlicher als das Beste eines Strahls der Breite %2</translation>
    </message>
    <message>
        <source>no: %1 nats below a width-%2 beam&apos;s best</source>
        <translation>nein: %1 Nat unter dem Besten eines Strahls der Breite %2</translation>
    </message>
    <message numerus="yes">
        <source>Its %n token(s) have log-prob %1; the best %n-token continuation a width-%2 beam found has %3 (end tokens counted as ordinary tokens there)</source>
        <translation>
            <numerusform>Das %Ln Token der Spalte hat Log-Prob %1; die beste Fortsetzung aus %Ln Token, die ein Strahl der Breite %2 fand, hat %3 (Endtokens dort wie gewöhnliche Tokens gezählt)</numerusform>
            <numerusform>Die %Ln Tokens der Spalte haben Log-Prob %1; die beste Fortsetzung aus %Ln Tokens, die ein Strahl der Breite %2 fand, hat %3 (Endtokens dort wie gewöhnliche Tokens gezählt)</numerusform>
        </translation>
    </message>
    <message>
        <source>Chosen from this row&apos;s numbers: deterministic or not, overlap, log-prob gap, loops</source>
        <translation>Aus den Zahlen dieser Zeile gewählt: deterministisch oder nicht, Überlappung, Log-Prob-Abstand, Schleifen</translation>
    </message>
    <message>
        <source>Several different good candidates to choose from: captions, rewrites, reranking</source>
        <translation>Mehrere verschiedene gute Kandidaten zur Auswahl: Bildunterschriften, Umformulierungen, Reranking</translation>
    </message>
    <message>
        <source>Several candidates, though these overlap a lot (raise the diversity penalty)</source>
        <translation>Mehrere Kandidaten, die sich aber stark überlappen (die Diversitätsstrafe erhöhen)</translation>
    </message>
    <message>
        <source>yes: runs overlap %1</source>
        <translation>ja: Läufe überlappen %1</translation>
    </message>
    <message>
        <source>no: runs overlap %1</source>
        <translation>nein: Läufe überlappen %1</translation>
    </message>
    <message>
        <source>final beams: yes, overlap %1</source>
        <translation>finale Strahlen: ja, Überlappung %1</translation>
    </message>
    <message>
        <source>final beams: no, overlap %1</source>
        <translation>finale Strahlen: nein, Überlappung %1</translation>
    </message>
    <message numerus="yes">
        <source>Re-run with %n seed(s): mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / all word pairs)</source>
        <translation>
            <numerusform>Erneut mit %Ln Seed ausgeführt: mittlere Bigramm-Überlappung %1 (gemeinsame Wortpaare zweier Läufe: 0 = keine, 1 = dieselben), mittlerer gemeinsamer Anfang %2 Tokens, distinct-2 aller Läufe zusammen %3 (verschiedene Wortpaare / alle Wortpaare)</numerusform>
            <numerusform>Erneut mit %Ln Seeds ausgeführt: mittlere Bigramm-Überlappung %1 (gemeinsame Wortpaare zweier Läufe: 0 = keine, 1 = dieselben), mittlerer gemeinsamer Anfang %2 Tokens, distinct-2 aller Läufe zusammen %3 (verschiedene Wortpaare / alle Wortpaare)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms per step</source>
        <translation>%1 ms pro Schritt</translation>
    </message>
    <message>
        <source>%1× greedy&apos;s time per step
%2× its tokens evaluated per step</source>
        <translation>%1× die Zeit pro Schritt von Greedy
%2× seine ausgewerteten Tokens pro Schritt</translation>
    </message>
    <message>
        <source>A step chooses the next token of every sequence a strategy keeps. Beam search keeps k beams, so its steps evaluate k tokens, all in one batched forward pass that reads the weights once: a step costs more than greedy&apos;s, but less than k of them. It ends early when its beams finish.</source>
        <translation>Ein Schritt wählt das nächste Token jeder Sequenz, die eine Strategie führt. Die Strahlsuche führt k Strahlen, also wertet jeder ihrer Schritte k Tokens aus, alle in einem gebündelten Forward-Pass, der die Gewichte nur einmal liest: Ein Schritt kostet mehr als einer von Greedy, aber weniger als k davon. Sie endet früher, wenn ihre Strahlen fertig sind.</translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %n forward pass(es).</source>
        <translation>
            <numerusform>%1 ms pro Schritt (%2 Tokens/s), %3 ausgewertete Tokens pro Schritt in %Ln Forward-Pass.</numerusform>
            <numerusform>%1 ms pro Schritt (%2 Tokens/s), %3 ausgewertete Tokens pro Schritt in %Ln Forward-Passes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step against greedy&apos;s %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy&apos;s %5, in %n forward pass(es).</source>
        <translation>
            <numerusform>%1 ms pro Schritt gegenüber %2 ms bei Greedy (%3 Tokens/s); %4 ausgewertete Tokens pro Schritt gegenüber %5 bei Greedy, in %Ln Forward-Pass.</numerusform>
            <numerusform>%1 ms pro Schritt gegenüber %2 ms bei Greedy (%3 Tokens/s); %4 ausgewertete Tokens pro Schritt gegenüber %5 bei Greedy, in %Ln Forward-Passes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ConstraintBox</name>
    <message>
        <source>Open a grammar or a JSON Schema</source>
        <translation>Grammatik oder JSON-Schema öffnen</translation>
    </message>
    <message>
        <source>GBNF grammars and JSON Schemas (*.gbnf *.json);;All files (*)</source>
        <translation>GBNF-Grammatiken und JSON-Schemas (*.gbnf *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not read %1.</source>
        <translation>%1 konnte nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Off: the model may write anything. A constraint forbids, at every step, each token that would break a grammar or a JSON Schema.</source>
        <translation>Aus: Das Modell darf alles schreiben. Eine Vorgabe verbietet bei jedem Schritt jedes Token, das eine Grammatik oder ein JSON-Schema verletzen würde.</translation>
    </message>
    <message>
        <source>Compiling…</source>
        <translation>Wird kompiliert …</translation>
    </message>
    <message numerus="yes">
        <source>%1 in force: %n rule(s), compiled for this model&apos;s vocabulary in %2 ms.</source>
        <translation>
            <numerusform>%1 gilt: %Ln Regel, für das Vokabular dieses Modells in %2 ms kompiliert.</numerusform>
            <numerusform>%1 gilt: %Ln Regeln, für das Vokabular dieses Modells in %2 ms kompiliert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Takes effect once a model is loaded.</source>
        <translation>Gilt, sobald ein Modell geladen ist.</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>Vorgabe</translation>
    </message>
    <message>
        <source>Constrained decoding: the sampler chain&apos;s first stage forbids every token that would not fit the grammar, so the output always parses</source>
        <translation>Eingeschränktes Dekodieren: Die erste Stufe der Sampler-Kette verbietet jedes Token, das nicht zur Grammatik passt, sodass die Ausgabe immer gültig ist</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Any JSON value</source>
        <translation>Beliebiger JSON-Wert</translation>
    </message>
    <message>
        <source>JSON Schema</source>
        <translation>JSON-Schema</translation>
    </message>
    <message>
        <source>GBNF grammar</source>
        <translation>GBNF-Grammatik</translation>
    </message>
    <message>
        <source>What the output must be: anything, any JSON value, JSON that matches a schema, or text that a GBNF grammar (llama.cpp&apos;s format) accepts</source>
        <translation>Was die Ausgabe sein muss: beliebig, ein beliebiger JSON-Wert, JSON passend zu einem Schema oder Text, den eine GBNF-Grammatik (das Format von llama.cpp) annimmt</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Beispiel</translation>
    </message>
    <message>
        <source>Examples that come with the app, and the files you opened</source>
        <translation>Beispiele, die mit der App kommen, und die Dateien, die Sie geöffnet haben</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>Datei öffnen …</translation>
    </message>
    <message>
        <source>Open a .gbnf grammar or a .json JSON Schema</source>
        <translation>Eine .gbnf-Grammatik oder ein .json-JSON-Schema öffnen</translation>
    </message>
    <message>
        <source>Edit the grammar or schema, then Apply (Ctrl+Return)</source>
        <translation>Grammatik oder Schema bearbeiten, dann Anwenden (Strg+Return)</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Compile the edited text and use it from the current step on (Ctrl+Return)</source>
        <translation>Den bearbeiteten Text kompilieren und ab dem aktuellen Schritt verwenden (Strg+Return)</translation>
    </message>
    <message>
        <source>Grammar</source>
        <translation>Grammatik</translation>
    </message>
    <message>
        <source>The GBNF grammar the engine made of the schema: what the mask is computed from</source>
        <translation>Die GBNF-Grammatik, die die Engine aus dem Schema gemacht hat: daraus wird die Maske berechnet</translation>
    </message>
    <message>
        <source>Compare with unconstrained</source>
        <translation>Mit uneingeschränkt vergleichen</translation>
    </message>
    <message>
        <source>Generate the same prompt with the same settings and seed but no constraint, step by step beside the constrained text</source>
        <translation>Denselben Prompt mit denselben Einstellungen und demselben Seed, aber ohne Vorgabe erzeugen, Schritt für Schritt neben dem eingeschränkten Text</translation>
    </message>
    <message>
        <source>Not in force: %1</source>
        <translation>Nicht in Kraft: %1</translation>
    </message>
    <message>
        <source>The playground runs without a constraint.</source>
        <translation>Der Playground läuft ohne Vorgabe.</translation>
    </message>
    <message>
        <source>Constraint: apply the edited grammar or schema</source>
        <translation>Vorgabe: die bearbeitete Grammatik oder das Schema anwenden</translation>
    </message>
    <message>
        <source> (edited)</source>
        <translation> (bearbeitet)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvBlocksPanel</name>
    <message>
        <source>Run a prompt (with several continuations to see blocks shared) to fill the pool.</source>
        <translation>Starten Sie einen Prompt (mit mehreren Fortsetzungen, um geteilte Blöcke zu sehen), um den Pool zu füllen.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Contiguous (reserve the whole context)&lt;/b&gt;&lt;br&gt;%1 positions reserved per sequence: %2 for %n sequence(s), of which %3 (%4 %) hold nothing. That is %5× the paged pool&apos;s bytes; paging wastes at most one partly filled block per sequence.</source>
        <translation>
            <numerusform>&lt;b&gt;Zusammenhängend (ganzen Kontext reservieren)&lt;/b&gt;&lt;br&gt;%1 Positionen je Sequenz reserviert: %2 für %Ln Sequenz, davon halten %3 (%4 %) nichts. Das ist das %5-Fache der Bytes des seitenweisen Pools; Paging verschwendet höchstens einen teilweise gefüllten Block je Sequenz.</numerusform>
            <numerusform>&lt;b&gt;Zusammenhängend (ganzen Kontext reservieren)&lt;/b&gt;&lt;br&gt;%1 Positionen je Sequenz reserviert: %2 für %Ln Sequenzen, davon halten %3 (%4 %) nichts. Das ist das %5-Fache der Bytes des seitenweisen Pools; Paging verschwendet höchstens einen teilweise gefüllten Block je Sequenz.</numerusform>
        </translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>Sequenz</translation>
    </message>
    <message>
        <source>continuation %1</source>
        <translation>Fortsetzung %1</translation>
    </message>
    <message>
        <source>this page&apos;s run</source>
        <translation>dem Lauf dieser Seite</translation>
    </message>
    <message>
        <source>the Playground&apos;s session (its branches)</source>
        <translation>der Sitzung im Playground (ihre Zweige)</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>A&amp;ktualisieren</translation>
    </message>
    <message>
        <source>The Playground has no session: Step or Run there, branch from a token, then Refresh here.</source>
        <translation>Der Playground hat keine Sitzung: dort Schritt oder Starten, von einem Token abzweigen, dann hier Aktualisieren.</translation>
    </message>
    <message>
        <source>Reading the Playground&apos;s pool…</source>
        <translation>Lese den Pool des Playgrounds …</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Paged (the pool as it stands)&lt;/b&gt;&lt;br&gt;%n sequence(s), %1 positions in %2 blocks of %3: %4 in use. Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every sequence would hold its own copy of the shared blocks.</source>
        <translation>
            <numerusform>&lt;b&gt;Seitenweise (der Pool, wie er steht)&lt;/b&gt;&lt;br&gt;%Ln Sequenz, %1 Positionen in %2 Blöcken zu %3: %4 belegt. Ungenutzte Plätze in teilweise gefüllten Blöcken: %5 (%6 %). Teilen sparte %7: ohne Copy-on-Write hielte jede Sequenz eine eigene Kopie der geteilten Blöcke.</numerusform>
            <numerusform>&lt;b&gt;Seitenweise (der Pool, wie er steht)&lt;/b&gt;&lt;br&gt;%Ln Sequenzen, %1 Positionen in %2 Blöcken zu %3: %4 belegt. Ungenutzte Plätze in teilweise gefüllten Blöcken: %5 (%6 %). Teilen sparte %7: ohne Copy-on-Write hielte jede Sequenz eine eigene Kopie der geteilten Blöcke.</numerusform>
        </translation>
    </message>
    <message>
        <source>Seque&amp;nces of:</source>
        <translation>Sequenzen &amp;von:</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvCalculatorPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;%1 per position&lt;/b&gt; (2 × %2 layers × %3 KV heads × %4 × %5 bytes), &lt;b&gt;%6 per sequence&lt;/b&gt; of %7 positions, &lt;b&gt;%8 for %n sequence(s)&lt;/b&gt;. Weights: %9%10.</source>
        <translation>
            <numerusform>&lt;b&gt;%1 je Position&lt;/b&gt; (2 × %2 Schichten × %3 KV-Köpfe × %4 × %5 Bytes), &lt;b&gt;%6 je Sequenz&lt;/b&gt; aus %7 Positionen, &lt;b&gt;%8 für %Ln Sequenz&lt;/b&gt;. Gewichte: %9%10.</numerusform>
            <numerusform>&lt;b&gt;%1 je Position&lt;/b&gt; (2 × %2 Schichten × %3 KV-Köpfe × %4 × %5 Bytes), &lt;b&gt;%6 je Sequenz&lt;/b&gt; aus %7 Positionen, &lt;b&gt;%8 für %Ln Sequenzen&lt;/b&gt;. Gewichte: %9%10.</numerusform>
        </translation>
    </message>
    <message>
        <source> (the file&apos;s tensors)</source>
        <translation> (die Tensoren der Datei)</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>C&amp;ontext:</source>
        <translation>K&amp;ontext:</translation>
    </message>
    <message>
        <source>&amp;Attention:</source>
        <translation>A&amp;ttention:</translation>
    </message>
    <message>
        <source>&amp;Weights:</source>
        <translation>&amp;Gewichte:</translation>
    </message>
    <message>
        <source>as trained</source>
        <translation>wie trainiert</translation>
    </message>
    <message>
        <source>MHA (a K/V head per query head)</source>
        <translation>MHA (ein K/V-Kopf je Query-Kopf)</translation>
    </message>
    <message>
        <source>MQA (one K/V head)</source>
        <translation>MQA (ein K/V-Kopf)</translation>
    </message>
    <message>
        <source>The loaded model (%1 layers, %2 KV heads)</source>
        <translation>Das geladene Modell (%1 Schichten, %2 KV-Köpfe)</translation>
    </message>
    <message>
        <source>Seque&amp;nces:</source>
        <translation>Sequen&amp;zen:</translation>
    </message>
    <message>
        <source>&amp;KV dtype:</source>
        <translation>K&amp;V-Datentyp:</translation>
    </message>
    <message>
        <source>%1 fit (KV only: %2) · %3 % used</source>
        <translation>%1 passen (nur KV: %2) · %3 % belegt</translation>
    </message>
    <message>
        <source>RAM %1</source>
        <translation>RAM %1</translation>
    </message>
    <message>
        <source>GPU %1 GiB</source>
        <translation>GPU %1 GiB</translation>
    </message>
    <message>
        <source>A formula, not a measurement: KV bytes = 2 (K and V) × layers × KV heads × head dim × positions × bytes per value × sequences. The bars put it beside the weights in this computer&apos;s memory (RAM, where the CPU engine runs) and on GPUs of 24, 40, 80 and 141 GiB; &quot;fit&quot; counts the sequences of this context that fit after the weights.</source>
        <translation>Eine Formel, keine Messung: KV-Bytes = 2 (K und V) × Schichten × KV-Köpfe × Kopfdimension × Positionen × Bytes je Wert × Sequenzen. Die Balken stellen sie neben die Gewichte im Arbeitsspeicher dieses Computers (RAM, wo die CPU-Engine rechnet) und auf GPUs mit 24, 40, 80 und 141 GiB; „passen“ zählt die Sequenzen dieses Kontexts, die nach den Gewichten Platz finden.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvCompressionPanel</name>
    <message>
        <source>Cannot read the text file &apos;%1&apos;: %2</source>
        <translation>Die Textdatei „%1“ lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>The text file &apos;%1&apos; is not UTF-8 text.</source>
        <translation>Die Textdatei „%1“ ist kein UTF-8-Text.</translation>
    </message>
    <message>
        <source>Open a long text</source>
        <translation>Einen langen Text öffnen</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>Textdateien (*.txt *.md);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Measuring: run %1 of %2…</source>
        <translation>Messung: Lauf %1 von %2 …</translation>
    </message>
    <message>
        <source>Reading the text: %1 of %2 tokens, every policy in turn…</source>
        <translation>Lese den Text: %1 von %2 Tokens, jede Strategie nacheinander …</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>Datentyp des KV-Caches</translation>
    </message>
    <message>
        <source>f32 weights and activations (about 4 bytes per parameter more memory, several times slower): the KL then comes from the cache alone</source>
        <translation>f32-Gewichte und -Aktivierungen (etwa 4 Bytes je Parameter mehr Speicher, mehrfach langsamer): die KL stammt dann allein vom Cache</translation>
    </message>
    <message>
        <source>&amp;Compare dtypes</source>
        <translation>Datentypen &amp;vergleichen</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>Datentyp</translation>
    </message>
    <message>
        <source>bytes / position</source>
        <translation>Bytes / Position</translation>
    </message>
    <message>
        <source>max KL</source>
        <translation>max. KL</translation>
    </message>
    <message>
        <source>top-1 agrees</source>
        <translation>Top-1 gleich</translation>
    </message>
    <message>
        <source>ms / step</source>
        <translation>ms / Schritt</translation>
    </message>
    <message>
        <source>KL divergence from the f32 cache per step</source>
        <translation>KL-Divergenz zum f32-Cache je Schritt</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>Nats</translation>
    </message>
    <message>
        <source>Exact arithmetic: the differences come from how the cache stores K and V alone.</source>
        <translation>Exakte Arithmetik: die Unterschiede stammen allein davon, wie der Cache K und V speichert.</translation>
    </message>
    <message>
        <source>The fast path (quantized activations, as llama.cpp) amplifies the cache&apos;s rounding; tick Exact arithmetic to measure the cache&apos;s own share.</source>
        <translation>Der schnelle Pfad (quantisierte Aktivierungen, wie llama.cpp) verstärkt die Rundung des Caches; wählen Sie Exakte Arithmetik, um den Anteil des Caches selbst zu messen.</translation>
    </message>
    <message>
        <source>The f32 run picks a greedy text; f16 and q8_0 caches read the same tokens, so each step compares two distributions over the same context.</source>
        <translation>Der f32-Lauf wählt einen gierigen Text; f16- und q8_0-Caches lesen dieselben Tokens, so vergleicht jeder Schritt zwei Verteilungen über denselben Kontext.</translation>
    </message>
    <message>
        <source>Long context: eviction</source>
        <translation>Langer Kontext: Verdrängung</translation>
    </message>
    <message>
        <source>Built in: the GNU GPL v3 (a long English text)</source>
        <translation>Eingebaut: GNU GPL v3 (langer englischer Text)</translation>
    </message>
    <message>
        <source>Open a text file…</source>
        <translation>Eine Textdatei öffnen …</translation>
    </message>
    <message>
        <source>T&amp;okens:</source>
        <translation>T&amp;okens:</translation>
    </message>
    <message>
        <source>C&amp;ache:</source>
        <translation>&amp;Cache:</translation>
    </message>
    <message>
        <source>S&amp;inks:</source>
        <translation>S&amp;inks:</translation>
    </message>
    <message>
        <source>policy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <source>positions kept</source>
        <translation>behaltene Positionen</translation>
    </message>
    <message>
        <source>KV bytes</source>
        <translation>KV-Bytes</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>Perplexität</translation>
    </message>
    <message>
        <source>Loss per token (mean of the last 32)</source>
        <translation>Verlust je Token (Mittel der letzten 32)</translation>
    </message>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Perplexity over tokens %1–%2, after the bounded caches first fill.%3 Keeping the first tokens (attention sinks) matters: most attention goes to them whatever they say.</source>
        <translation>Perplexität über die Tokens %1–%2, nachdem sich die begrenzten Caches zum ersten Mal gefüllt haben.%3 Die ersten Tokens zu behalten (Attention Sinks) ist wichtig: der Großteil der Aufmerksamkeit geht an sie, was auch immer sie sagen.</translation>
    </message>
    <message>
        <source>(Stopped early: partial results.)</source>
        <translation>(Vorzeitig angehalten: Teilergebnisse.)</translation>
    </message>
    <message>
        <source>Reads the text one token at a time through three caches: the full one, the first tokens plus a recent window (StreamingLLM), and the window alone. Kept keys keep their positions.</source>
        <translation>Liest den Text Token für Token durch drei Caches: den vollen, die ersten Tokens plus ein jüngstes Fenster (StreamingLLM) und das Fenster allein. Behaltene Schlüssel behalten ihre Positionen.</translation>
    </message>
    <message>
        <source>mean KL</source>
        <translation>mittlere KL</translation>
    </message>
    <message>
        <source>full cache</source>
        <translation>voller Cache</translation>
    </message>
    <message>
        <source>%1 sinks + %2 recent</source>
        <translation>%1 Sinks + %2 jüngste</translation>
    </message>
    <message>
        <source>%1 recent, no sinks</source>
        <translation>%1 jüngste, ohne Sinks</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>Schritte:</translation>
    </message>
    <message>
        <source>Exact arith&amp;metic</source>
        <translation>Exakte Arith&amp;metik</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>Text:</translation>
    </message>
    <message>
        <source>Ru&amp;n eviction</source>
        <translation>Verdrängun&amp;g starten</translation>
    </message>
    <message>
        <source>Compare dtypes to draw how far each cache type moves the next-token distribution.</source>
        <translation>„Datentypen vergleichen“ zeigt hier, wie weit jeder Cache-Typ die Verteilung des nächsten Tokens verschiebt.</translation>
    </message>
    <message>
        <source>Run eviction to draw each cache policy&apos;s loss per token.</source>
        <translation>„Verdrängung starten“ zeigt hier den Verlust pro Token jeder Cache-Strategie.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvController</name>
    <message>
        <source>The prompt is empty: write a few words for the model to continue.</source>
        <translation>Der Prompt ist leer: schreiben Sie ein paar Wörter, die das Modell fortsetzen soll.</translation>
    </message>
    <message>
        <source>The prompt (%1 tokens) and %2 steps need %3 positions, but the model&apos;s context holds %4: lower the steps or shorten the prompt.</source>
        <translation>Der Prompt (%1 Tokens) und %2 Schritte brauchen %3 Positionen, der Kontext des Modells fasst aber %4: verringern Sie die Schritte oder kürzen Sie den Prompt.</translation>
    </message>
    <message>
        <source>The text has %1 tokens; the experiment was asked to read %2. Choose a longer text or fewer tokens.</source>
        <translation>Der Text hat %1 Tokens; das Experiment soll %2 lesen. Wählen Sie einen längeren Text oder weniger Tokens.</translation>
    </message>
    <message>
        <source>The sinks (%1) must be fewer than the cache&apos;s %2 positions.</source>
        <translation>Die Sinks (%1) müssen weniger sein als die %2 Positionen des Caches.</translation>
    </message>
    <message>
        <source>full cache</source>
        <translation>voller Cache</translation>
    </message>
    <message>
        <source>sinks %1 + window %2</source>
        <translation>Sinks %1 + Fenster %2</translation>
    </message>
    <message>
        <source>window %1 (no sinks)</source>
        <translation>Fenster %1 (ohne Sinks)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvGrowthPanel</name>
    <message>
        <source>KV bytes in use (KiB)</source>
        <translation>belegte KV-Bytes (KiB)</translation>
    </message>
    <message>
        <source>with the cache</source>
        <translation>mit Cache</translation>
    </message>
    <message>
        <source>without the cache</source>
        <translation>ohne Cache</translation>
    </message>
    <message>
        <source>Run a prompt: every step&apos;s cache size and forward-pass time appear here, measured.</source>
        <translation>Starten Sie einen Prompt: Cachegröße und Zeit des Vorwärtsdurchlaufs jedes Schritts erscheinen hier, gemessen.</translation>
    </message>
    <message>
        <source>Without it, step %1 recomputed all %2 positions: %3 ms against %4 ms, and %5 ms in total against %6 ms over the %7 steps measured.</source>
        <translation>Ohne ihn berechnete Schritt %1 alle %2 Positionen neu: %3 ms gegenüber %4 ms, und insgesamt %5 ms gegenüber %6 ms über die %7 gemessenen Schritte.</translation>
    </message>
    <message>
        <source>(The no-cache timings were stopped.)</source>
        <translation>(Die Zeitmessung ohne Cache wurde angehalten.)</translation>
    </message>
    <message>
        <source>The no-cache timings follow when Time without the cache is on.</source>
        <translation>Die Zeiten ohne Cache folgen, wenn „Ohne Cache messen“ an ist.</translation>
    </message>
    <message>
        <source>reused from the cache</source>
        <translation>aus dem Cache wiederverwendet</translation>
    </message>
    <message>
        <source>computed in this step</source>
        <translation>in diesem Schritt berechnet</translation>
    </message>
    <message>
        <source>K/V rows without the cache</source>
        <translation>K/V-Zeilen ohne Cache</translation>
    </message>
    <message>
        <source>K/V rows with the cache</source>
        <translation>K/V-Zeilen mit Cache</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>Cache size per step</source>
        <translation>Cachegröße je Schritt</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>Forward pass per decode step</source>
        <translation>Vorwärtsdurchlauf je Dekodierschritt</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Total time so far</source>
        <translation>Bisherige Gesamtzeit</translation>
    </message>
    <message>
        <source>Which K/V rows each step reused and which it computed (rows: steps, columns: positions)</source>
        <translation>Welche K/V-Zeilen jeder Schritt wiederverwendete und welche er berechnete (Zeilen: Schritte, Spalten: Positionen)</translation>
    </message>
    <message>
        <source>As without the cache (every row computed again)</source>
        <translation>Wie ohne Cache (jede Zeile neu berechnet)</translation>
    </message>
    <message>
        <source>Run a prompt to see the cache grow.</source>
        <translation>Starten Sie einen Prompt, um den Cache wachsen zu sehen.</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>KV bytes in use (MiB)</source>
        <translation>belegte KV-Bytes (MiB)</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s); the cache holds %1 positions in %2 MiB. With the cache each decode step computed 1 new K/V row per layer and read the rest back.</source>
        <translation>
            <numerusform>%Ln Schritt; der Cache hält %1 Positionen in %2 MiB. Mit Cache berechnete jeder Dekodierschritt 1 neue K/V-Zeile je Schicht und las den Rest zurück.</numerusform>
            <numerusform>%Ln Schritte; der Cache hält %1 Positionen in %2 MiB. Mit Cache berechnete jeder Dekodierschritt 1 neue K/V-Zeile je Schicht und las den Rest zurück.</numerusform>
        </translation>
    </message>
    <message>
        <source>Each step&apos;s time appears as the prompt runs.</source>
        <translation>Die Zeit jedes Schritts erscheint, während der Prompt läuft.</translation>
    </message>
    <message>
        <source>Each step&apos;s cache size appears as the prompt runs.</source>
        <translation>Die Cache-Größe jedes Schritts erscheint, während der Prompt läuft.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvHeatmapPanel</name>
    <message>
        <source>Step %1:</source>
        <translation>Schritt %1:</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>Schritt:</translation>
    </message>
    <message>
        <source>Run a prompt to fill the cache.</source>
        <translation>Starten Sie einen Prompt, um den Cache zu füllen.</translation>
    </message>
    <message>
        <source>The cache is f32: there is nothing to compare. Run with f16 or q8_0 to see the error.</source>
        <translation>Der Cache ist f32: es gibt nichts zu vergleichen. Starten Sie mit f16 oder q8_0, um den Fehler zu sehen.</translation>
    </message>
    <message>
        <source>This run recorded no attention.</source>
        <translation>Dieser Lauf hat keine Aufmerksamkeit aufgezeichnet.</translation>
    </message>
    <message>
        <source>Every query head has its own K/V head (multi-head attention): %1 K/V heads per layer.</source>
        <translation>Jeder Query-Kopf hat einen eigenen K/V-Kopf (Multi-Head-Attention): %1 K/V-Köpfe je Schicht.</translation>
    </message>
    <message>
        <source>Grouped-query attention: %1 query heads share %2 K/V heads, %3 per group — the cache stores %2 heads per layer, not %1. Choose &apos;Layers × KV heads&apos; to see each group.</source>
        <translation>Grouped-Query-Attention: %1 Query-Köpfe teilen sich %2 K/V-Köpfe, %3 je Gruppe – der Cache speichert %2 Köpfe je Schicht, nicht %1. Wählen Sie „Schichten × KV-Köpfe“, um jede Gruppe zu sehen.</translation>
    </message>
    <message numerus="yes">
        <source>Attention was recorded at %n step(s) of this run; the slider walks through them.</source>
        <translation>
            <numerusform>Aufmerksamkeit wurde an %Ln Schritt dieses Laufs aufgezeichnet; der Schieberegler geht sie durch.</numerusform>
            <numerusform>Aufmerksamkeit wurde an %Ln Schritten dieses Laufs aufgezeichnet; der Schieberegler geht sie durch.</numerusform>
        </translation>
    </message>
    <message>
        <source>K/V head %1 is read by query heads %2–%3</source>
        <translation>K/V-Kopf %1 wird von den Query-Köpfen %2–%3 gelesen</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Layers × KV heads</source>
        <translation>Schichten × KV-Köpfe</translation>
    </message>
    <message>
        <source>&amp;Log colours</source>
        <translation>&amp;Logarithmische Farben</translation>
    </message>
    <message>
        <source>Colours on a log scale: small attention weights (down to 1 % of an even share) become distinguishable</source>
        <translation>Farben auf logarithmischer Skala: kleine Aufmerksamkeitsgewichte (bis hinab zu 1 % eines gleichmäßigen Anteils) werden unterscheidbar</translation>
    </message>
    <message>
        <source>The run is filling the cache; the map appears when it ends.</source>
        <translation>Der Lauf füllt den Cache; die Karte erscheint, wenn er endet.</translation>
    </message>
    <message>
        <source>Sho&amp;w:</source>
        <translation>Zei&amp;gen:</translation>
    </message>
    <message>
        <source>R&amp;ows:</source>
        <translation>&amp;Zeilen:</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvPage</name>
    <message>
        <source>&amp;KV cache</source>
        <translation>&amp;KV-Cache</translation>
    </message>
    <message>
        <source>The KV cache of a run: growth and timings with and without it, the memory heatmap, paged blocks, compression and eviction, and the memory calculator</source>
        <translation>Der KV-Cache eines Laufs: Wachstum und Zeiten mit und ohne ihn, die Speicher-Heatmap, seitenweise Blöcke, Kompression und Verdrängung sowie der Speicherrechner</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3 positions cached.</source>
        <translation>Schritt %1 von %2: %3 Positionen im Cache.</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft …</translation>
    </message>
    <message>
        <source>Stopped. </source>
        <translation>Angehalten. </translation>
    </message>
    <message numerus="yes">
        <source>%n sequence(s), %1 positions in sequence 1, measured in %2 ms. It continued: “%3”</source>
        <translation>
            <numerusform>%Ln Sequenz, %1 Positionen in Sequenz 1, gemessen in %2 ms. Fortsetzung: „%3“</numerusform>
            <numerusform>%Ln Sequenzen, %1 Positionen in Sequenz 1, gemessen in %2 ms. Fortsetzung: „%3“</numerusform>
        </translation>
    </message>
    <message>
        <source>Positions cached in the first sequence of the KV page&apos;s run</source>
        <translation>Im Cache gehaltene Positionen der ersten Sequenz des Laufs der KV-Seite</translation>
    </message>
    <message>
        <source>Export the tab in front</source>
        <translation>Den vorderen Reiter exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Gespeichert: %1</translation>
    </message>
    <message>
        <source>&amp;Prompt</source>
        <translation>&amp;Prompt</translation>
    </message>
    <message>
        <source>S&amp;teps</source>
        <translation>Sch&amp;ritte</translation>
    </message>
    <message>
        <source>Se&amp;quences</source>
        <translation>Se&amp;quenzen</translation>
    </message>
    <message>
        <source>Continuations forked from the prompt; they share its KV blocks (sampled at temperature 0.8 when more than one)</source>
        <translation>Vom Prompt abgezweigte Fortsetzungen; sie teilen seine KV-Blöcke (bei mehr als einer mit Temperatur 0,8 gesampelt)</translation>
    </message>
    <message>
        <source>KV &amp;dtype</source>
        <translation>KV-Datent&amp;yp</translation>
    </message>
    <message>
        <source>&amp;Block</source>
        <translation>&amp;Block</translation>
    </message>
    <message>
        <source>Positions per KV block</source>
        <translation>Positionen je KV-Block</translation>
    </message>
    <message>
        <source>After the run, the same tokens again recomputing every prefix (at most %1 steps): the growth chart&apos;s comparison</source>
        <translation>Nach dem Lauf dieselben Tokens noch einmal, jedes Präfix neu berechnet (höchstens %1 Schritte): der Vergleich im Wachstumsdiagramm</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Run the prompt into a fresh KV cache (F5)</source>
        <translation>Den Prompt in einen frischen KV-Cache laufen lassen (F5)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the run or the measurement (Esc)</source>
        <translation>Den Lauf oder die Messung anhalten (Esc)</translation>
    </message>
    <message>
        <source>Save the tab in front as a PNG or SVG image</source>
        <translation>Den vorderen Reiter als PNG- oder SVG-Bild speichern</translation>
    </message>
    <message>
        <source>Growth</source>
        <translation>Wachstum</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>Heatmap</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blöcke</translation>
    </message>
    <message>
        <source>Compression</source>
        <translation>Kompression</translation>
    </message>
    <message>
        <source>Calculator</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>Run a prompt: the page measures the KV cache of that run — every chart and cell is the engine&apos;s number.</source>
        <translation>Starten Sie einen Prompt: die Seite misst den KV-Cache dieses Laufs – jedes Diagramm und jede Zelle ist eine Zahl der Engine.</translation>
    </message>
    <message>
        <source>Time witho&amp;ut the cache</source>
        <translation>Ohne Cache messe&amp;n</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
</context>
<context>
    <name>dlab::ui::LessonPanel</name>
    <message>
        <source>&amp;Lesson</source>
        <translation>&amp;Lektion</translation>
    </message>
    <message>
        <source>Set up the page</source>
        <translation>Seite einrichten</translation>
    </message>
    <message>
        <source>Put the lesson&apos;s prompt and settings on its page and start it; your own settings are kept</source>
        <translation>Prompt und Einstellungen der Lektion auf ihre Seite übernehmen und starten; Ihre eigenen Einstellungen bleiben gespeichert</translation>
    </message>
    <message>
        <source>Restore my settings</source>
        <translation>Meine Einstellungen zurück</translation>
    </message>
    <message>
        <source>Put back the prompt and settings you had before the lesson set up the page</source>
        <translation>Den Prompt und die Einstellungen zurückholen, die Sie hatten, bevor die Lektion die Seite einrichtete</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>The previous lesson</source>
        <translation>Die vorige Lektion</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>The next lesson</source>
        <translation>Die nächste Lektion</translation>
    </message>
    <message>
        <source>Some lesson files could not be read:</source>
        <translation>Einige Lektionsdateien konnten nicht gelesen werden:</translation>
    </message>
    <message>
        <source>Try this</source>
        <translation>Probieren Sie</translation>
    </message>
    <message>
        <source>No lessons were found.</source>
        <translation>Es wurden keine Lektionen gefunden.</translation>
    </message>
    <message>
        <source>Lesson %1 of %2</source>
        <translation>Lektion %1 von %2</translation>
    </message>
</context>
<context>
    <name>dlab::ui::LogitBias</name>
    <message>
        <source>Logit bias entry %1 (“%2”) is not TOKEN_ID:BIAS; write e.g. 198:-2 or 198:ban.</source>
        <translation>Logit-Bias-Eintrag %1 („%2“) hat nicht die Form TOKEN_ID:BIAS; schreiben Sie z. B. 198:-2 oder 198:ban.</translation>
    </message>
    <message>
        <source>Logit bias entry %1: token id %2 is outside the vocabulary (0 to %3).</source>
        <translation>Logit-Bias-Eintrag %1: Token-ID %2 liegt außerhalb des Vokabulars (0 bis %3).</translation>
    </message>
</context>
<context>
    <name>dlab::ui::MainWindow</name>
    <message>
        <source>Decoding Lab</source>
        <translation>Decoding Lab</translation>
    </message>
    <message>
        <source>About Decoding Lab</source>
        <translation>Über Decoding Lab</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Decoding Lab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;See how a language model picks each token: the logits, what temperature, top-k, top-p and the penalties do to them, and the text that comes out.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Decoding Lab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Zeigt, wie ein Sprachmodell jedes Token auswählt: die Logits, was Temperatur, Top-k, Top-p und die Strafen mit ihnen machen, und den Text, der dabei entsteht.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>Modell ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;Backend</source>
        <translation>&amp;Backend</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CPU &amp;threads</source>
        <translation>CPU-&amp;Threads</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%Ln Thread</numerusform>
            <numerusform>%Ln Threads</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>&amp;Darstellung</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Decoding Lab</source>
        <translation>&amp;Über Decoding Lab</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop loading the model (Esc)</source>
        <translation>Laden des Modells abbrechen (Esc)</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>A model is still loading; cancel it first.</source>
        <translation>Es wird noch ein Modell geladen; bitte zuerst abbrechen.</translation>
    </message>
    <message>
        <source>%1: the file does not exist (it may have been moved or deleted).</source>
        <translation>%1: Die Datei existiert nicht (vielleicht wurde sie verschoben oder gelöscht).</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Lade %1…</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF-Modelle (*.gguf);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>No model — File → Open model… or drop a .gguf file here</source>
        <translation>Kein Modell — Datei → Modell öffnen… oder eine .gguf-Datei hierher ziehen</translation>
    </message>
    <message>
        <source>%1 — %2, %3 parameters, %4 layers, vocabulary %5 — %6</source>
        <translation>%1 — %2, %3 Parameter, %4 Schichten, Vokabular %5 — %6</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>Modell %1</translation>
    </message>
    <message>
        <source>Decoding Lab — %1</source>
        <translation>Decoding Lab — %1</translation>
    </message>
    <message>
        <source>Loading cancelled; %1 is still in use.</source>
        <translation>Laden abgebrochen; %1 bleibt in Verwendung.</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>kein Modell</translation>
    </message>
    <message>
        <source>context %1 / %2</source>
        <translation>Kontext %1 / %2</translation>
    </message>
    <message>
        <source>model %1 · KV cache %2</source>
        <translation>Modell %1 · KV-Cache %2</translation>
    </message>
    <message>
        <source>prompt %1 tokens/s</source>
        <translation>Prompt %1 Tokens/s</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 Tokens/s</translation>
    </message>
    <message>
        <source>last step: %1 ms (forward %2 ms, sampling %3 ms)</source>
        <translation>letzter Schritt: %1 ms (Forward-Pass %2 ms, Sampling %3 ms)</translation>
    </message>
    <message numerus="yes">
        <source>CPU, %n thread(s)</source>
        <translation>
            <numerusform>CPU, %Ln Thread</numerusform>
            <numerusform>CPU, %Ln Threads</numerusform>
        </translation>
    </message>
    <message>
        <source>The model file (memory-mapped) and the key/value cache blocks in use</source>
        <translation>Die Modelldatei (per Memory-Mapping eingeblendet) und die belegten Blöcke des Key/Value-Caches</translation>
    </message>
    <message>
        <source>last answer: time to first token %1 ms; %2 of its %3 prompt tokens came from the KV cache</source>
        <translation>letzte Antwort: erstes Token nach %1 ms; %2 der %3 Prompt-Tokens kamen aus dem KV-Cache</translation>
    </message>
    <message>
        <source>Load a model first: the lesson runs on it.</source>
        <translation>Laden Sie zuerst ein Modell: Die Lektion läuft darauf.</translation>
    </message>
    <message>
        <source>Text at %1 %</source>
        <translation>Text bei %1 %</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>Large text and thick lines, readable from the back of a lecture room</source>
        <translation>Große Schrift und dicke Linien, lesbar bis in die letzte Reihe des Hörsaals</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>&amp;Originalgröße</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>Le&amp;ktionen</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>Lektionen</translation>
    </message>
    <message>
        <source>Show the &amp;lessons panel</source>
        <translation>&amp;Lektionen-Leiste zeigen</translation>
    </message>
    <message>
        <source>The saved CPU thread count “%1” (settings: %2, key backend/threads) is not between 0 and %3; using the automatic count.</source>
        <translation>Die gespeicherte Zahl der CPU-Threads „%1“ (Einstellungen: %2, Schlüssel backend/threads) liegt nicht zwischen 0 und %3; die automatische Zahl wird verwendet.</translation>
    </message>
    <message numerus="yes">
        <source>The backend now uses %n thread(s); the model and the generated text stay.</source>
        <translation>
            <numerusform>Das Backend verwendet jetzt %Ln Thread; Modell und erzeugter Text bleiben erhalten.</numerusform>
            <numerusform>Das Backend verwendet jetzt %Ln Threads; Modell und erzeugter Text bleiben erhalten.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
In its metadata: %2
%3</source>
        <translation>%1
In seinen Metadaten: %2
%3</translation>
    </message>
    <message>
        <source>Replay a saved session: every step as it was recorded, with or without its model</source>
        <translation>Eine gespeicherte Sitzung wiedergeben: jeden Schritt so, wie er aufgezeichnet wurde – mit oder ohne das Modell</translation>
    </message>
    <message>
        <source>&amp;Save Session…</source>
        <translation>Sitzung &amp;speichern…</translation>
    </message>
    <message>
        <source>Save the front page&apos;s session (prompt, settings, every step&apos;s numbers) to replay it later</source>
        <translation>Die Sitzung der vorderen Seite speichern (Prompt, Einstellungen, die Zahlen jedes Schritts), um sie später wiederzugeben</translation>
    </message>
    <message>
        <source>There is no page to save a session from.</source>
        <translation>Es gibt keine Seite, deren Sitzung gespeichert werden könnte.</translation>
    </message>
    <message>
        <source>%1: the session was recorded on the “%2” page, which this version of Decoding Lab does not have.</source>
        <translation>%1: Die Sitzung wurde auf der Seite „%2“ aufgezeichnet, die diese Version von Decoding Lab nicht hat.</translation>
    </message>
    <message>
        <source>Saved the session to %1</source>
        <translation>Sitzung in %1 gespeichert</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>Decoding Lab sessions (*.dlab)</source>
        <translation>Decoding-Lab-Sitzungen (*.dlab)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Decoding Lab sessions (*.dlab);;All files (*)</source>
        <translation>Decoding-Lab-Sitzungen (*.dlab);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open S&amp;ession…</source>
        <translation>S&amp;itzung öffnen…</translation>
    </message>
    <message>
        <source>The NVIDIA GPU, which this machine has</source>
        <translation>Die NVIDIA-GPU, die dieser Rechner hat</translation>
    </message>
    <message>
        <source>The CPU here: %1</source>
        <translation>Hier die CPU: %1</translation>
    </message>
    <message>
        <source>Runs the model on the processor</source>
        <translation>Führt das Modell auf dem Prozessor aus</translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation>CUDA-GPU</translation>
    </message>
    <message>
        <source>Runs the model on the NVIDIA GPU</source>
        <translation>Führt das Modell auf der NVIDIA-GPU aus</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>Nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>The saved backend “%1” (settings: %2, key backend/kind) is not auto, cpu or cuda; using automatic.</source>
        <translation>Das gespeicherte Backend „%1“ (Einstellungen: %2, Schlüssel backend/kind) ist weder auto noch cpu noch cuda; es wird „Automatisch“ verwendet.</translation>
    </message>
    <message numerus="yes">
        <source>The model runs on the GPU; it will use %n CPU thread(s) when it runs on the CPU.</source>
        <translation>
            <numerusform>Das Modell läuft auf der GPU; auf der CPU wird es %Ln Thread verwenden.</numerusform>
            <numerusform>Das Modell läuft auf der GPU; auf der CPU wird es %Ln Threads verwenden.</numerusform>
        </translation>
    </message>
    <message>
        <source>The model runs on the GPU; it will choose its CPU threads when it runs on the CPU.</source>
        <translation>Das Modell läuft auf der GPU; auf der CPU wählt es die Zahl der Threads selbst.</translation>
    </message>
    <message>
        <source>&amp;Go to page</source>
        <translation>Gehe zu &amp;Seite</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 — %2 parameters, %3 layers — %4</source>
        <translation>%1 — %2 Parameter, %3 Schichten — %4</translation>
    </message>
</context>
<context>
    <name>dlab::ui::Page</name>
    <message>
        <source>The %1 page does not save sessions.</source>
        <translation>Die Seite „%1“ speichert keine Sitzungen.</translation>
    </message>
    <message>
        <source>%1: the %2 page cannot show saved sessions.</source>
        <translation>%1: Die Seite „%2“ kann keine gespeicherten Sitzungen anzeigen.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::PlaygroundController</name>
    <message>
        <source>No model is loaded.</source>
        <translation>Es ist kein Modell geladen.</translation>
    </message>
    <message>
        <source>Start a session before stepping.</source>
        <translation>Vor einem Schritt zuerst eine Sitzung starten.</translation>
    </message>
    <message>
        <source>Start a session before running.</source>
        <translation>Vor dem Ausführen zuerst eine Sitzung starten.</translation>
    </message>
    <message>
        <source>Start a session before branching.</source>
        <translation>Vor dem Verzweigen zuerst eine Sitzung starten.</translation>
    </message>
    <message>
        <source>original</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>Zweig %1</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (aktuell)</translation>
    </message>
    <message>
        <source>The constraint forbids “%1” at step %2: choose a token it allows, or switch the constraint off.</source>
        <translation>Die Vorgabe verbietet „%1“ in Schritt %2: Wählen Sie ein Token, das sie erlaubt, oder schalten Sie die Vorgabe aus.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::PlaygroundPage</name>
    <message>
        <source>Press Step to generate the first token.</source>
        <translation>„Schritt“ drücken, um das erste Token zu erzeugen.</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>Kein Modell geladen.</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 with these settings would choose “%2” (p = %3); %n token(s) kept</source>
        <translation>
            <numerusform>Schritt %1 würde mit diesen Einstellungen „%2“ wählen (p = %3); %Ln Token bleibt übrig</numerusform>
            <numerusform>Schritt %1 würde mit diesen Einstellungen „%2“ wählen (p = %3); %Ln Tokens bleiben übrig</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 chose “%2” (p = %3); %n token(s) kept after the chain</source>
        <translation>
            <numerusform>Schritt %1 wählte „%2“ (p = %3); nach der Kette bleibt %Ln Token übrig</numerusform>
            <numerusform>Schritt %1 wählte „%2“ (p = %3); nach der Kette bleiben %Ln Tokens übrig</numerusform>
        </translation>
    </message>
    <message>
        <source>Branched at step %1: “%2” (p = %3 under these settings). Step or Run continues from it; the prompt and the tokens before it are not computed again.</source>
        <translation>Bei Schritt %1 verzweigt: „%2“ (p = %3 mit diesen Einstellungen). „Schritt“ oder „Start“ setzt dort fort; der Prompt und die Tokens davor werden nicht neu berechnet.</translation>
    </message>
    <message>
        <source>(end of text)</source>
        <translation>(Textende)</translation>
    </message>
    <message>
        <source>The context is full: Reset to start again.</source>
        <translation>Der Kontext ist voll: „Von vorn“ beginnt neu.</translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation>(gestoppt)</translation>
    </message>
    <message numerus="yes">
        <source>The prompt is %n token(s) (%1 special); each shows its id. The model sees only these numbers.</source>
        <translation>
            <numerusform>Der Prompt ist %Ln Token lang (%1 spezielle); jedes zeigt seine ID. Das Modell sieht nur diese Zahlen.</numerusform>
            <numerusform>Der Prompt ist %Ln Tokens lang (%1 spezielle); jedes zeigt seine ID. Das Modell sieht nur diese Zahlen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Original (%n token(s))</source>
        <translation>
            <numerusform>Original (%Ln Token)</numerusform>
            <numerusform>Original (%Ln Tokens)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Branch %1: “%2” at step %3 (%n token(s))</source>
        <translation>
            <numerusform>Zweig %1: „%2“ bei Schritt %3 (%Ln Token)</numerusform>
            <numerusform>Zweig %1: „%2“ bei Schritt %3 (%Ln Tokens)</numerusform>
        </translation>
    </message>
    <message>
        <source>Step once to see the prompt as the model&apos;s tokens.</source>
        <translation>Einen Schritt ausführen, um den Prompt als Tokens des Modells zu sehen.</translation>
    </message>
    <message>
        <source>Ban “%1” (id %2) with the logit bias</source>
        <translation>„%1“ (ID %2) per Logit-Bias sperren</translation>
    </message>
    <message numerus="yes">
        <source>Switched to another branch: %n token(s) generated on it. Step or Run continues it.</source>
        <translation>
            <numerusform>Zu einem anderen Zweig gewechselt: %Ln Token darauf erzeugt. „Schritt“ oder „Start“ setzt ihn fort.</numerusform>
            <numerusform>Zu einem anderen Zweig gewechselt: %Ln Tokens darauf erzeugt. „Schritt“ oder „Start“ setzt ihn fort.</numerusform>
        </translation>
    </message>
    <message>
        <source>Hugging Face order</source>
        <translation>Reihenfolge Hugging Face</translation>
    </message>
    <message>
        <source>llama.cpp order</source>
        <translation>Reihenfolge llama.cpp</translation>
    </message>
    <message>
        <source>Custom order</source>
        <translation>Eigene Reihenfolge</translation>
    </message>
    <message>
        <source>Advanced samplers</source>
        <translation>Weitere Sampler</translation>
    </message>
    <message>
        <source>Typical-p, top-n-σ, XTC, DRY, Mirostat, no-repeat-n-gram, logit bias and the penalty window</source>
        <translation>Typical-p, Top-n-σ, XTC, DRY, Mirostat, N-Gramm-Sperre, Logit-Bias und das Strafen-Fenster</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>Zufälliger Seed</translation>
    </message>
    <message>
        <source>Pick a new seed at random (takes effect at Reset)</source>
        <translation>Einen neuen Seed zufällig wählen (wirkt ab „Von vorn“)</translation>
    </message>
    <message>
        <source>Use this choice</source>
        <translation>Diese Wahl übernehmen</translation>
    </message>
    <message>
        <source>Continue from this step with the token these settings choose (a branch: the tokens before it are kept)</source>
        <translation>Ab diesem Schritt mit dem Token weitermachen, das diese Einstellungen wählen (ein Zweig: die Tokens davor bleiben)</translation>
    </message>
    <message>
        <source>Restore my settings</source>
        <translation>Meine Einstellungen zurück</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Log-Skala</translation>
    </message>
    <message>
        <source>Probability on a logarithmic axis: the long tail of unlikely tokens becomes visible</source>
        <translation>Wahrscheinlichkeit auf einer logarithmischen Achse: der lange Schwanz unwahrscheinlicher Tokens wird sichtbar</translation>
    </message>
    <message>
        <source>Bars</source>
        <translation>Balken</translation>
    </message>
    <message>
        <source>How many of the most likely tokens the chart and the table show</source>
        <translation>Wie viele der wahrscheinlichsten Tokens Diagramm und Tabelle zeigen</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>Klartext</translation>
    </message>
    <message>
        <source>Show the generated text as plain text instead of tokens</source>
        <translation>Den erzeugten Text als Klartext statt als Tokens zeigen</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>Zweig</translation>
    </message>
    <message>
        <source>Every continuation you branched off stays: switch between them here</source>
        <translation>Jede Fortsetzung, die Sie abgezweigt haben, bleibt erhalten: hier wechseln Sie zwischen ihnen</translation>
    </message>
    <message>
        <source>Put back the prompt and the sampler settings you had before the demo or lesson</source>
        <translation>Den Prompt und die Sampler-Einstellungen von vor der Vorführung oder Lektion zurückholen</translation>
    </message>
    <message>
        <source>Mirostat 2 order</source>
        <translation>Reihenfolge Mirostat 2</translation>
    </message>
    <message>
        <source>Mirostat 1 order</source>
        <translation>Reihenfolge Mirostat 1</translation>
    </message>
    <message>
        <source>The engine&apos;s named stage orders: Hugging Face (penalties, temperature, top-k, top-p, min-p), llama.cpp (penalties, DRY, top-n-σ, top-k, typical, top-p, min-p, XTC, temperature last) and Mirostat 1 and 2 (penalties, temperature, Mirostat).</source>
        <translation>Die benannten Stufenfolgen der Engine: Hugging Face (Strafen, Temperatur, Top-k, Top-p, Min-p), llama.cpp (Strafen, DRY, Top-n-σ, Top-k, Typical, Top-p, Min-p, XTC, Temperatur zuletzt) sowie Mirostat 1 und 2 (Strafen, Temperatur, Mirostat).</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>Prompt-Tokens</translation>
    </message>
    <message>
        <source>Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times and %4 tokens of it again (highlighted).</source>
        <translation>Schleife erkannt: Die letzten %1 Tokens sind ein Block aus %2 Tokens, %3-mal wiederholt, und %4 Tokens davon noch einmal (hervorgehoben).</translation>
    </message>
    <message>
        <source>Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times (highlighted).</source>
        <translation>Schleife erkannt: Die letzten %1 Tokens sind ein Block aus %2 Tokens, %3-mal wiederholt (hervorgehoben).</translation>
    </message>
    <message>
        <source>Greedy decoding keeps choosing the same continuation; sampling or a repetition penalty breaks it.</source>
        <translation>Greedy-Decoding wählt immer wieder dieselbe Fortsetzung; Sampling oder eine Wiederholungsstrafe durchbricht die Schleife.</translation>
    </message>
    <message>
        <source>Even sampled, the repeated tokens stay the likeliest; a repetition penalty, DRY or no-repeat-n-gram breaks the loop.</source>
        <translation>Auch beim Sampling bleiben die wiederholten Tokens die wahrscheinlichsten; eine Wiederholungsstrafe, DRY oder die N-Gramm-Sperre durchbricht die Schleife.</translation>
    </message>
    <message>
        <source>The seed takes effect at Reset: the steps so far keep the draws of seed %1.</source>
        <translation>Der Seed wirkt ab „Von vorn“: Die bisherigen Schritte behalten die Ziehungen von Seed %1.</translation>
    </message>
    <message>
        <source>Positions used by the playground&apos;s current branch, of the context the session allows</source>
        <translation>Positionen, die der aktuelle Zweig des Playgrounds belegt, von der Kontextlänge, die die Sitzung zulässt</translation>
    </message>
    <message>
        <source>&amp;Playground</source>
        <translation>&amp;Playground</translation>
    </message>
    <message>
        <source>Step through generation one token at a time and see what the sampler does</source>
        <translation>Die Generierung Token für Token durchgehen und sehen, was der Sampler tut</translation>
    </message>
    <message>
        <source>The playground has no steps to save yet: press Step or Run first.</source>
        <translation>Im Playground gibt es noch keine Schritte zum Speichern: zuerst „Schritt“ oder „Start“ drücken.</translation>
    </message>
    <message>
        <source>%1 was recorded on another page, not the playground.</source>
        <translation>%1 wurde auf einer anderen Seite aufgezeichnet, nicht im Playground.</translation>
    </message>
    <message>
        <source>This branch of the session has no recorded steps.</source>
        <translation>Dieser Zweig der Sitzung hat keine aufgezeichneten Schritte.</translation>
    </message>
    <message>
        <source>The recorded step before this one (PageUp)</source>
        <translation>Der aufgezeichnete Schritt davor (Bild auf)</translation>
    </message>
    <message>
        <source>The recorded step after this one (PageDown)</source>
        <translation>Der aufgezeichnete Schritt danach (Bild ab)</translation>
    </message>
    <message>
        <source>Replaying %1 (recorded on %2); Reset to leave the replay.</source>
        <translation>Wiedergabe von %1 (aufgezeichnet mit %2); „Von vorn“ beendet die Wiedergabe.</translation>
    </message>
    <message>
        <source>Everything shown comes from the file: the steps as they were computed. Step, Run, the sampler settings and branching need the model and are off while replaying; click a token to see its step.</source>
        <translation>Alles Angezeigte stammt aus der Datei: die Schritte so, wie sie berechnet wurden. „Schritt“, „Start“, die Sampler-Einstellungen und Verzweigen brauchen das Modell und sind während der Wiedergabe aus; ein Klick auf ein Token zeigt seinen Schritt.</translation>
    </message>
    <message>
        <source>No steps</source>
        <translation>Keine Schritte</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · KV cache %3 in %n block(s)</source>
        <translation>
            <numerusform>Schritt %1 von %2 · KV-Cache %3 in %Ln Block</numerusform>
            <numerusform>Schritt %1 von %2 · KV-Cache %3 in %Ln Blöcken</numerusform>
        </translation>
    </message>
    <message>
        <source>After this step the KV cache held %1 positions in %2 blocks, %3 of them shared between branches (sharing saved %4).</source>
        <translation>Nach diesem Schritt hielt der KV-Cache %1 Positionen in %2 Blöcken, %3 davon zwischen Zweigen geteilt (das Teilen sparte %4).</translation>
    </message>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1 %</translation>
    </message>
    <message>
        <source>&gt; %1 %</source>
        <translation>&gt; %1 %</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>The text generated so far does not fit the new constraint: the playground starts over from the prompt. Press Step.</source>
        <translation>Der bisher erzeugte Text passt nicht zur neuen Vorgabe: Der Playground beginnt wieder beim Prompt. Drücken Sie Schritt.</translation>
    </message>
    <message>
        <source>Removed by the grammar</source>
        <translation>Grammatik entfernte</translation>
    </message>
    <message>
        <source>For each generated token, the share of the probability the grammar forbade at that step: the price of the constraint. Hover a bar for the number and the best token it took away.</source>
        <translation>Für jedes erzeugte Token der Anteil der Wahrscheinlichkeit, den die Grammatik in diesem Schritt verboten hat: der Preis der Vorgabe. Zeigen Sie auf einen Balken für die Zahl und das beste Token, das sie weggenommen hat.</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>Mittel %1</translation>
    </message>
    <message>
        <source>The grammar removed %1 of the probability on average over these steps, %2 at most.</source>
        <translation>Die Grammatik hat über diese Schritte im Mittel %1 der Wahrscheinlichkeit entfernt, höchstens %2.</translation>
    </message>
    <message>
        <source>The same prompt with the same settings and seed, generated step by step beside the constrained text but without the constraint.</source>
        <translation>Derselbe Prompt mit denselben Einstellungen und demselben Seed, Schritt für Schritt neben dem eingeschränkten Text erzeugt, aber ohne Vorgabe.</translation>
    </message>
    <message>
        <source>Without the constraint (same prompt, settings and seed)</source>
        <translation>Ohne Vorgabe (gleicher Prompt, gleiche Einstellungen und Seed)</translation>
    </message>
    <message>
        <source>Without the constraint: leaves it at token %1 (“%2”)</source>
        <translation>Ohne Vorgabe: verlässt sie bei Token %1 („%2“)</translation>
    </message>
    <message>
        <source>Its token %1 (“%2”, highlighted) is one the grammar forbids there: from it on, this text no longer fits the constraint.</source>
        <translation>Sein Token %1 („%2“, hervorgehoben) verbietet die Grammatik an dieser Stelle: Ab ihm passt dieser Text nicht mehr zur Vorgabe.</translation>
    </message>
    <message>
        <source>Without the constraint: ended, and fits it</source>
        <translation>Ohne Vorgabe: beendet, und passt zu ihr</translation>
    </message>
    <message>
        <source>It ended with a text the constraint accepts.</source>
        <translation>Er endete mit einem Text, den die Vorgabe annimmt.</translation>
    </message>
    <message>
        <source>Without the constraint: fits it so far</source>
        <translation>Ohne Vorgabe: passt bisher zu ihr</translation>
    </message>
    <message>
        <source>Every token so far is one the grammar would have allowed too.</source>
        <translation>Jedes Token bisher hätte auch die Grammatik erlaubt.</translation>
    </message>
    <message>
        <source>Replay: the recorded step before this one</source>
        <translation>Wiedergabe: der aufgezeichnete Schritt davor</translation>
    </message>
    <message>
        <source>Replay: the recorded step after this one</source>
        <translation>Wiedergabe: der aufgezeichnete Schritt danach</translation>
    </message>
    <message>
        <source>H in bits</source>
        <translation>H in Bit</translation>
    </message>
    <message>
        <source>H in nats</source>
        <translation>H in Nat</translation>
    </message>
    <message>
        <source>The unit of H, the entropy. Entropy measures how spread out the distribution is: 0 when one token is certain, log2(n) bits for n equally likely tokens (1 nat = 1.44 bits)</source>
        <translation>Die Einheit von H, der Entropie. Die Entropie misst, wie breit die Verteilung ist: 0, wenn ein Token sicher ist, log2(n) Bit für n gleich wahrscheinliche Tokens (1 Nat = 1,44 Bit)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::RequestLogModel</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>%1 + %2</source>
        <translation>%1 + %2</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>Stream</translation>
    </message>
    <message>
        <source>Tokens (prompt + completion)</source>
        <translation>Tokens (Prompt + Antwort)</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Finish or error</source>
        <translation>Ende oder Fehler</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServeController</name>
    <message>
        <source>No model is loaded, so there is nothing to serve.</source>
        <translation>Es ist kein Modell geladen, also gibt es nichts bereitzustellen.</translation>
    </message>
    <message>
        <source>Cannot listen on %1: the address is not this machine&apos;s.</source>
        <translation>Auf %1 kann nicht gelauscht werden: Die Adresse gehört nicht zu diesem Rechner.</translation>
    </message>
    <message>
        <source>Cannot listen on %1:%2: the port is in use or the address is not this machine&apos;s. Choose another port (0 picks a free one).</source>
        <translation>Auf %1:%2 kann nicht gelauscht werden: Der Port ist belegt oder die Adresse gehört nicht zu diesem Rechner. Wählen Sie einen anderen Port (0 nimmt einen freien).</translation>
    </message>
    <message>
        <source>This build of Decoding Lab has no HTTP server (it was built without cpp-httplib).</source>
        <translation>Dieser Build von Decoding Lab hat keinen HTTP-Server (er wurde ohne cpp-httplib gebaut).</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServePage</name>
    <message>
        <source>Se&amp;rve</source>
        <translation>Se&amp;rver</translation>
    </message>
    <message>
        <source>Serve the loaded model over an OpenAI-compatible HTTP API with continuous batching, and watch its requests</source>
        <translation>Das geladene Modell über eine OpenAI-kompatible HTTP-API mit Continuous Batching bereitstellen und seine Anfragen beobachten</translation>
    </message>
    <message>
        <source>Give the address to listen on (127.0.0.1 serves this machine only).</source>
        <translation>Geben Sie die Adresse an, auf der gelauscht wird (127.0.0.1 bedient nur diesen Rechner).</translation>
    </message>
    <message>
        <source>%1 is not a loopback address: to let other machines reach the server, tick “%2” instead.</source>
        <translation>%1 ist keine Loopback-Adresse: Damit andere Rechner den Server erreichen, kreuzen Sie stattdessen „%2“ an.</translation>
    </message>
    <message>
        <source>Starting… (the server starts once the engine has finished the work in front of it)</source>
        <translation>Wird gestartet … (der Server startet, sobald die Engine die Arbeit vor ihm erledigt hat)</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird gestoppt …</translation>
    </message>
    <message>
        <source>Serving %1 on %2 (%3, batch up to %4, %5 positions per request, prefix cache %6). While it serves, the server holds the engine: the other pages&apos; work waits until you stop it.</source>
        <translation>%1 wird auf %2 bereitgestellt (%3, Batch bis %4, %5 Positionen pro Anfrage, Präfix-Cache %6). Solange er läuft, belegt der Server die Engine: Die Arbeit der anderen Seiten wartet, bis Sie ihn stoppen.</translation>
    </message>
    <message>
        <source>static batching</source>
        <translation>statisches Batching</translation>
    </message>
    <message>
        <source>continuous batching</source>
        <translation>Continuous Batching</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>The server stopped to let the new model load.</source>
        <translation>Der Server wurde gestoppt, damit das neue Modell geladen werden kann.</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n request(s): the port is free and the engine is back for the other pages.</source>
        <translation>
            <numerusform>Nach %Ln Anfrage gestoppt: Der Port ist frei, und die Engine steht den anderen Seiten wieder zur Verfügung.</numerusform>
            <numerusform>Nach %Ln Anfragen gestoppt: Der Port ist frei, und die Engine steht den anderen Seiten wieder zur Verfügung.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>Nicht gestartet.</translation>
    </message>
    <message>
        <source>(%1 cancelled or failed)</source>
        <translation>(%1 abgebrochen oder fehlgeschlagen)</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>Laufend: %1</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>Wartend: %1</translation>
    </message>
    <message>
        <source>Decode tokens/s (last %1 s): %2</source>
        <translation>Decode-Tokens/s (letzte %1 s): %2</translation>
    </message>
    <message>
        <source>Tokens the decode steps produced in the last %1 seconds, from the serving loop&apos;s steps</source>
        <translation>Tokens, die die Decode-Schritte in den letzten %1 Sekunden erzeugt haben, aus den Schritten der Serving-Schleife</translation>
    </message>
    <message>
        <source>The Serve page uses no context of its own</source>
        <translation>Die Server-Seite hat keinen eigenen Kontext</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>Ad&amp;resse</translation>
    </message>
    <message>
        <source>The address to listen on: 127.0.0.1 serves this machine only</source>
        <translation>Die Adresse, auf der gelauscht wird: 127.0.0.1 bedient nur diesen Rechner</translation>
    </message>
    <message>
        <source>Allow other &amp;machines (listen on all addresses)</source>
        <translation>Andere Rechner &amp;zulassen (auf allen Adressen lauschen)</translation>
    </message>
    <message>
        <source>Listen on 0.0.0.0, so that other machines on the network can reach the server</source>
        <translation>Auf 0.0.0.0 lauschen, damit andere Rechner im Netz den Server erreichen</translation>
    </message>
    <message>
        <source>⚠ Other machines on the network can reach this server and use the model: it has no password. Untick the box to serve this machine only.</source>
        <translation>⚠ Andere Rechner im Netz können diesen Server erreichen und das Modell nutzen: Er hat kein Passwort. Entfernen Sie das Häkchen, um nur diesen Rechner zu bedienen.</translation>
    </message>
    <message>
        <source>&amp;Port</source>
        <translation>&amp;Port</translation>
    </message>
    <message>
        <source>0 picks any free port</source>
        <translation>0 nimmt einen beliebigen freien Port</translation>
    </message>
    <message>
        <source>any</source>
        <translation>beliebig</translation>
    </message>
    <message>
        <source>Max &amp;batch</source>
        <translation>Max. &amp;Batch</translation>
    </message>
    <message>
        <source>Requests decoded together in one step</source>
        <translation>Anfragen, die in einem Schritt gemeinsam dekodiert werden</translation>
    </message>
    <message>
        <source>C&amp;ontext</source>
        <translation>K&amp;ontext</translation>
    </message>
    <message>
        <source>Positions per request (prompt and answer), at most the model&apos;s trained context</source>
        <translation>Positionen pro Anfrage (Prompt und Antwort), höchstens der trainierte Kontext des Modells</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>kontinuierlich</translation>
    </message>
    <message>
        <source>static</source>
        <translation>statisch</translation>
    </message>
    <message>
        <source>Continuous: a request joins the batch at the next step. Static: a batch runs until its longest request is done.</source>
        <translation>Kontinuierlich: Eine Anfrage kommt beim nächsten Schritt in den Batch. Statisch: Ein Batch läuft, bis seine längste Anfrage fertig ist.</translation>
    </message>
    <message>
        <source>Prefix &amp;cache</source>
        <translation>Präfix-&amp;Cache</translation>
    </message>
    <message>
        <source>Reuse the KV blocks of prompt prefixes that earlier requests computed</source>
        <translation>Die KV-Blöcke von Prompt-Präfixen wiederverwenden, die frühere Anfragen berechnet haben</translation>
    </message>
    <message>
        <source>Start the server (F5)</source>
        <translation>Den Server starten (F5)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Stop the server; open requests end as cancelled (Esc)</source>
        <translation>Den Server stoppen; offene Anfragen enden als abgebrochen (Esc)</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <source>curl</source>
        <translation>curl</translation>
    </message>
    <message>
        <source>Python (openai package)</source>
        <translation>Python (Paket openai)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the curl command</source>
        <translation>Den curl-Befehl kopieren</translation>
    </message>
    <message>
        <source>Copy the Python example</source>
        <translation>Das Python-Beispiel kopieren</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>Start the server to use the loaded model from other programs through the OpenAI API. While it serves, it holds the engine: the other pages&apos; work waits until it stops.</source>
        <translation>Starten Sie den Server, um das geladene Modell aus anderen Programmen über die OpenAI-API zu nutzen. Solange er läuft, belegt er die Engine: Die Arbeit der anderen Seiten wartet, bis er stoppt.</translation>
    </message>
    <message>
        <source>The server holds the model: stop it on the Serve page to go on here.</source>
        <translation>Der Server belegt das Modell: auf der Seite „Server“ stoppen, um hier weiterzumachen.</translation>
    </message>
    <message>
        <source>Batchin&amp;g</source>
        <translation>Batchin&amp;g</translation>
    </message>
    <message>
        <source>Sta&amp;rt</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Completions served: %1</source>
        <translation>Beantwortete Completion-Anfragen: %1</translation>
    </message>
    <message>
        <source>Completion and chat requests that generated their answer to the end (a stop or the token limit). The request log below lists every request, also /v1/models, /health and those refused before generating.</source>
        <translation>Completion- und Chat-Anfragen, deren Antwort bis zum Ende erzeugt wurde (ein Stopp oder die Token-Grenze). Das Anfrageprotokoll darunter listet jede Anfrage, auch /v1/models, /health und die vor dem Erzeugen abgelehnten.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingBatchPanel</name>
    <message>
        <source>“%1” is not a batch size: write whole numbers from 1 to 64, separated by commas (1, 2, 4, 8).</source>
        <translation>„%1“ ist keine Batch-Größe: Schreiben Sie ganze Zahlen von 1 bis 64, durch Kommas getrennt (1, 2, 4, 8).</translation>
    </message>
    <message>
        <source>Write at least one batch size (1, 2, 4, 8).</source>
        <translation>Schreiben Sie mindestens eine Batch-Größe (1, 2, 4, 8).</translation>
    </message>
    <message>
        <source>at p50 inter-token latency</source>
        <translation>bei p50-Abstand zwischen Tokens</translation>
    </message>
    <message>
        <source>at p99 inter-token latency</source>
        <translation>bei p99-Abstand zwischen Tokens</translation>
    </message>
    <message>
        <source>Measure: for each batch size B the engine decodes B requests together. A bigger batch makes more tokens per second in total, and each user waits longer between tokens.</source>
        <translation>Messen: Für jede Batch-Größe B dekodiert die Engine B Anfragen gemeinsam. Ein größerer Batch erzeugt insgesamt mehr Tokens pro Sekunde, und jeder Nutzer wartet länger zwischen seinen Tokens.</translation>
    </message>
    <message>
        <source>Measured on this machine: batch %1 decodes %2 tokens/s at %3 ms between a user&apos;s tokens; batch %4 decodes %5 tokens/s at %6 ms.</source>
        <translation>Auf diesem Rechner gemessen: Batch %1 dekodiert %2 Tokens/s bei %3 ms zwischen den Tokens eines Nutzers; Batch %4 dekodiert %5 Tokens/s bei %6 ms.</translation>
    </message>
    <message>
        <source>(Stopped before every batch size was measured.)</source>
        <translation>(Gestoppt, bevor jede Batch-Größe gemessen war.)</translation>
    </message>
    <message>
        <source>Interactive chat</source>
        <translation>Interaktiver Chat</translation>
    </message>
    <message>
        <source>Batch processing</source>
        <translation>Stapelverarbeitung</translation>
    </message>
    <message>
        <source>Code completion</source>
        <translation>Code-Vervollständigung</translation>
    </message>
    <message>
        <source>p99 inter-token latency ≤ %1 ms</source>
        <translation>p99-Abstand zwischen Tokens ≤ %1 ms</translation>
    </message>
    <message>
        <source>throughput (tokens/s)</source>
        <translation>Durchsatz (Tokens/s)</translation>
    </message>
    <message>
        <source>p99 time to first token ≤ %1 ms</source>
        <translation>p99-Zeit bis zum ersten Token ≤ %1 ms</translation>
    </message>
    <message>
        <source>Measure first.</source>
        <translation>Zuerst messen.</translation>
    </message>
    <message>
        <source>batch %1 keeps p99 inter-token latency at %2 ms</source>
        <translation>Batch %1 hält den p99-Abstand zwischen Tokens bei %2 ms</translation>
    </message>
    <message>
        <source>no measured batch keeps p99 inter-token latency within %1 ms</source>
        <translation>keine gemessene Batch-Größe hält den p99-Abstand zwischen Tokens unter %1 ms</translation>
    </message>
    <message>
        <source>batch %1 decodes the most: %2 tokens/s</source>
        <translation>Batch %1 dekodiert am meisten: %2 Tokens/s</translation>
    </message>
    <message>
        <source>batch %1 keeps p99 time to first token at %2 ms</source>
        <translation>Batch %1 hält die p99-Zeit bis zum ersten Token bei %2 ms</translation>
    </message>
    <message>
        <source>no measured batch keeps p99 time to first token within %1 ms</source>
        <translation>keine gemessene Batch-Größe hält die p99-Zeit bis zum ersten Token unter %1 ms</translation>
    </message>
    <message>
        <source>Batch si&amp;zes</source>
        <translation>Batch-&amp;Größen</translation>
    </message>
    <message>
        <source>Whole numbers from 1 to 64, separated by commas</source>
        <translation>Ganze Zahlen von 1 bis 64, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>&amp;Prompt tokens</source>
        <translation>&amp;Prompt-Tokens</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>&amp;Messen</translation>
    </message>
    <message>
        <source>Run one batch of each size on the loaded model (F5)</source>
        <translation>Je einen Batch jeder Größe auf dem geladenen Modell ausführen (F5)</translation>
    </message>
    <message>
        <source>ms between a user&apos;s tokens</source>
        <translation>ms zwischen den Tokens eines Nutzers</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Which batch size for which workload</source>
        <translation>Welche Batch-Größe für welche Last</translation>
    </message>
    <message>
        <source>Chat: p99 inter-token &amp;latency at most</source>
        <translation>Chat: p99-Abstand &amp;zwischen Tokens höchstens</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Optimises</source>
        <translation>Optimiert</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch-Größe</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>ITL p50</source>
        <translation>ITL p50</translation>
    </message>
    <message>
        <source>ITL p99</source>
        <translation>ITL p99</translation>
    </message>
    <message>
        <source>TTFT p50</source>
        <translation>TTFT p50</translation>
    </message>
    <message>
        <source>TTFT p99</source>
        <translation>TTFT p99</translation>
    </message>
    <message>
        <source>Decode tokens per second, inter-token latency (ITL) and time to first token (TTFT) in ms, as measured:</source>
        <translation>Gemessen: Decode-Tokens pro Sekunde, Abstand zwischen Tokens (ITL) und Zeit bis zum ersten Token (TTFT) in ms:</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>A&amp;usgabe-Tokens</translation>
    </message>
    <message>
        <source>Code completion: p99 &amp;time to first token at most</source>
        <translation>Code-Vervollständigung: p99-Zeit bis zum ersten &amp;Token höchstens</translation>
    </message>
    <message>
        <source>Measure to draw one point per batch size.</source>
        <translation>„Messen“ zeichnet hier einen Punkt pro Batch-Größe.</translation>
    </message>
    <message>
        <source>Throughput against latency, one point per batch size (its number beside it)</source>
        <translation>Durchsatz gegen Latenz, ein Punkt je Batch-Größe (ihre Zahl daneben)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingController</name>
    <message>
        <source>A request of up to %1 tokens (prompt and answer) does not fit the model&apos;s context of %2 positions: shorten the prompts or the answers.</source>
        <translation>Eine Anfrage mit bis zu %1 Tokens (Prompt und Antwort) passt nicht in den Kontext des Modells von %2 Positionen: Kürzen Sie die Prompts oder die Antworten.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLabPage</name>
    <message>
        <source>Serving la&amp;b</source>
        <translation>Serving-La&amp;bor</translation>
    </message>
    <message>
        <source>%1: %2 of %3 requests finished, %4 steps so far…</source>
        <translation>%1: %2 von %3 Anfragen fertig, bisher %4 Schritte …</translation>
    </message>
    <message>
        <source>Static batching</source>
        <translation>Statisches Batching</translation>
    </message>
    <message>
        <source>Continuous batching</source>
        <translation>Continuous Batching</translation>
    </message>
    <message>
        <source>Stopped; what ran before Stop is shown.</source>
        <translation>Gestoppt; gezeigt wird, was vor dem Stopp lief.</translation>
    </message>
    <message>
        <source>Both runs done in %1 s of real time (the trace runs at its arrival times).</source>
        <translation>Beide Läufe fertig in %1 s Echtzeit (die Anfragen kommen zu ihren Ankunftszeiten).</translation>
    </message>
    <message>
        <source>Batch %1 measured (%2 of %3)…</source>
        <translation>Batch %1 gemessen (%2 von %3) …</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n batch size(s).</source>
        <translation>
            <numerusform>Nach %Ln Batch-Größe gestoppt.</numerusform>
            <numerusform>Nach %Ln Batch-Größen gestoppt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n batch size(s) measured.</source>
        <translation>
            <numerusform>%Ln Batch-Größe gemessen.</numerusform>
            <numerusform>%Ln Batch-Größen gemessen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Gestoppt.</translation>
    </message>
    <message>
        <source>Measured with and without the prefix cache.</source>
        <translation>Mit und ohne Präfix-Cache gemessen.</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Static batching first: waiting for the first steps…</source>
        <translation>Zuerst statisches Batching: Warten auf die ersten Schritte …</translation>
    </message>
    <message>
        <source>Measuring batch sizes…</source>
        <translation>Batch-Größen werden gemessen …</translation>
    </message>
    <message>
        <source>Running the requests with the prefix cache, then without…</source>
        <translation>Die Anfragen laufen mit Präfix-Cache, dann ohne …</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Last</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch-Größe</translation>
    </message>
    <message>
        <source>Streaming</source>
        <translation>Streaming</translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation>Präfix-Cache</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the run between two steps; what was measured stays (Esc)</source>
        <translation>Den Lauf zwischen zwei Schritten stoppen; was gemessen wurde, bleibt (Esc)</translation>
    </message>
    <message>
        <source>Every bar, point and number on this page is measured by the engine on the loaded model, in real time.</source>
        <translation>Jeder Balken, jeder Punkt und jede Zahl auf dieser Seite ist von der Engine am geladenen Modell in Echtzeit gemessen.</translation>
    </message>
    <message>
        <source>How a server batches requests, measured on the loaded model: static against continuous batching under load, batch size against latency, streaming, the prefix cache; and the layers of a safety pipeline on one prompt</source>
        <translation>Wie ein Server Anfragen bündelt, gemessen am geladenen Modell: statisches gegen kontinuierliches Batching unter Last, Batch-Größe gegen Latenz, Streaming, der Präfix-Cache; und die Schichten einer Sicherheits-Pipeline an einem Prompt</translation>
    </message>
    <message>
        <source>Decoding: step %1 of at most %2…</source>
        <translation>Dekodieren: Schritt %1 von höchstens %2 …</translation>
    </message>
    <message>
        <source>Stopped; the steps decoded before Stop are shown.</source>
        <translation>Gestoppt; die vor „Stopp“ dekodierten Schritte werden gezeigt.</translation>
    </message>
    <message>
        <source>The input filter blocked the prompt; nothing was decoded.</source>
        <translation>Der Eingabefilter hat den Prompt blockiert; nichts wurde dekodiert.</translation>
    </message>
    <message>
        <source>The prompt went through the four layers.</source>
        <translation>Der Prompt hat die vier Schichten durchlaufen.</translation>
    </message>
    <message>
        <source>Checking the prompt, then decoding…</source>
        <translation>Prompt wird geprüft, dann dekodiert …</translation>
    </message>
    <message>
        <source>Safety</source>
        <translation>Sicherheit</translation>
    </message>
    <message>
        <source>The policy cannot be used: %1</source>
        <translation>Diese Richtlinie ist nicht verwendbar: %1</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLoadPanel</name>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>Durchsatz (Tokens/s)</translation>
    </message>
    <message>
        <source>Decode steps (tokens/s)</source>
        <translation>Decode-Schritte (Tokens/s)</translation>
    </message>
    <message>
        <source>TTFT p50 / p99 (ms)</source>
        <translation>TTFT p50 / p99 (ms)</translation>
    </message>
    <message>
        <source>ITL p50 / p99 (ms)</source>
        <translation>ITL p50 / p99 (ms)</translation>
    </message>
    <message>
        <source>End to end p50 / p99 (ms)</source>
        <translation>Gesamtdauer p50 / p99 (ms)</translation>
    </message>
    <message>
        <source>Batch occupancy</source>
        <translation>Batch-Auslastung</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>Trefferquote des Präfix-Caches</translation>
    </message>
    <message>
        <source>Padding tokens</source>
        <translation>Padding-Tokens</translation>
    </message>
    <message>
        <source>Wall time (ms)</source>
        <translation>Gesamtzeit (ms)</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Run a load: the same requests arrive at random (Poisson) times and are served with static and then with continuous batching. Every bar is a step the engine ran.</source>
        <translation>Starten Sie eine Last: Dieselben Anfragen kommen zu zufälligen (Poisson-)Zeiten an und werden mit statischem, dann mit Continuous Batching bedient. Jeder Balken ist ein Schritt, den die Engine ausgeführt hat.</translation>
    </message>
    <message>
        <source>Stopped: the charts show the steps run before Stop; the metrics of a mode that did not finish stay empty.</source>
        <translation>Gestoppt: Die Diagramme zeigen die Schritte vor dem Stopp; die Kennzahlen eines Modus, der nicht fertig wurde, bleiben leer.</translation>
    </message>
    <message numerus="yes">
        <source>The same %n request(s) both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for requests that had already finished.</source>
        <translation>
            <numerusform>Dieselbe %Ln Anfrage auf beide Arten. Continuous Batching: %1 Tokens/s, p99-Zeit bis zum ersten Token %2 ms. Statisches Batching: %3 Tokens/s, p99-Zeit bis zum ersten Token %4 ms, und %5 Padding-Tokens für Anfragen berechnet, die schon fertig waren.</numerusform>
            <numerusform>Dieselben %Ln Anfragen auf beide Arten. Continuous Batching: %1 Tokens/s, p99-Zeit bis zum ersten Token %2 ms. Statisches Batching: %3 Tokens/s, p99-Zeit bis zum ersten Token %4 ms, und %5 Padding-Tokens für Anfragen berechnet, die schon fertig waren.</numerusform>
        </translation>
    </message>
    <message>
        <source> req/s</source>
        <translation> Anfr./s</translation>
    </message>
    <message>
        <source>Mean arrivals per second; the requests arrive independently (a Poisson process)</source>
        <translation>Mittlere Ankünfte pro Sekunde; die Anfragen kommen unabhängig voneinander (ein Poisson-Prozess)</translation>
    </message>
    <message>
        <source>Re&amp;quests</source>
        <translation>An&amp;fragen</translation>
    </message>
    <message>
        <source>&amp;Prompt tokens</source>
        <translation>&amp;Prompt-Tokens</translation>
    </message>
    <message>
        <source>Each request generates a length drawn from this range</source>
        <translation>Jede Anfrage erzeugt eine Länge, die aus diesem Bereich gezogen wird</translation>
    </message>
    <message>
        <source>Every prompt starts with the same tokens, which the prefix cache can share</source>
        <translation>Jeder Prompt beginnt mit denselben Tokens, die der Präfix-Cache teilen kann</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Tokens</translation>
    </message>
    <message>
        <source>Max &amp;batch</source>
        <translation>Max. &amp;Batch</translation>
    </message>
    <message>
        <source>Token bud&amp;get</source>
        <translation>Token-Bud&amp;get</translation>
    </message>
    <message>
        <source>Tokens evaluated per step: decode tokens and prefill chunks together</source>
        <translation>Pro Schritt ausgewertete Tokens: Decode-Tokens und Prefill-Stücke zusammen</translation>
    </message>
    <message>
        <source>&amp;X axis</source>
        <translation>&amp;X-Achse</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>Zeit (ms)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Run the trace with static, then with continuous batching (F5)</source>
        <translation>Die Anfragen mit statischem, dann mit Continuous Batching ausführen (F5)</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>static</source>
        <translation>statisch</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>kontinuierlich</translation>
    </message>
    <message>
        <source>Static batching: a batch starts when it is full (or its first request waited 1 s) and runs until its longest request is done</source>
        <translation>Statisches Batching: Ein Batch beginnt, wenn er voll ist (oder seine erste Anfrage 1 s gewartet hat), und läuft, bis seine längste Anfrage fertig ist</translation>
    </message>
    <message>
        <source>Continuous batching: a request joins at the next step with a free slot and leaves when it is done</source>
        <translation>Continuous Batching: Eine Anfrage kommt beim nächsten Schritt mit freiem Platz dazu und geht, wenn sie fertig ist</translation>
    </message>
    <message>
        <source>Run a load to see the requests join and leave the batch.</source>
        <translation>Starten Sie eine Last, um zu sehen, wie Anfragen in den Batch kommen und ihn verlassen.</translation>
    </message>
    <message>
        <source>R&amp;ate</source>
        <translation>&amp;Rate</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>A&amp;usgabe-Tokens</translation>
    </message>
    <message>
        <source>Shared s&amp;ystem prompt</source>
        <translation>Gemeinsamer S&amp;ystem-Prompt</translation>
    </message>
    <message numerus="yes">
        <source>#%1 (%n token(s))</source>
        <translation>
            <numerusform>#%1 (%Ln Token)</numerusform>
            <numerusform>#%1 (%Ln Tokens)</numerusform>
        </translation>
    </message>
    <message>
        <source>No system prompt is shared, yet %1 % of the prompt tokens came from the prefix cache: the prompts are cut from one sample text, and %2 began where an earlier prompt began.</source>
        <translation>Kein System-Prompt wird geteilt, und doch kamen %1 % der Prompt-Tokens aus dem Präfix-Cache: Die Prompts sind aus einem Beispieltext geschnitten, und %2 begann dort, wo schon ein früherer Prompt begann.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingPrefixPanel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Run: the requests share one system prompt and run one at a time, first with the prefix cache, then without. With the cache only the first request computes the shared prompt; the others find its KV blocks and start from there.</source>
        <translation>Starten: Die Anfragen teilen einen System-Prompt und laufen nacheinander, zuerst mit Präfix-Cache, dann ohne. Mit dem Cache berechnet nur die erste Anfrage den gemeinsamen Prompt; die anderen finden seine KV-Blöcke und beginnen dort.</translation>
    </message>
    <message>
        <source>TTFT p50 with the cache</source>
        <translation>TTFT p50 mit Cache</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>TTFT p50 without the cache</source>
        <translation>TTFT p50 ohne Cache</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the prefix cache and %3 ms without; %4&#xa0;% of the prompt tokens came from the cache.</source>
        <translation>
            <numerusform>%Ln Anfrage mit einem gemeinsamen System-Prompt von %1 Tokens: Die mittlere Zeit bis zum ersten Token beträgt %2 ms mit Präfix-Cache und %3 ms ohne; %4&#xa0;% der Prompt-Tokens kamen aus dem Cache.</numerusform>
            <numerusform>%Ln Anfragen mit einem gemeinsamen System-Prompt von %1 Tokens: Die mittlere Zeit bis zum ersten Token beträgt %2 ms mit Präfix-Cache und %3 ms ohne; %4&#xa0;% der Prompt-Tokens kamen aus dem Cache.</numerusform>
        </translation>
    </message>
    <message>
        <source>(Stopped before the end: the numbers cover the requests that finished.)</source>
        <translation>(Vor dem Ende gestoppt: Die Zahlen umfassen die fertigen Anfragen.)</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Tokens</translation>
    </message>
    <message>
        <source>&amp;User tokens</source>
        <translation>&amp;Nutzer-Tokens</translation>
    </message>
    <message>
        <source>Each request&apos;s own tokens after the system prompt</source>
        <translation>Die eigenen Tokens jeder Anfrage nach dem System-Prompt</translation>
    </message>
    <message>
        <source>Re&amp;quests</source>
        <translation>An&amp;fragen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>S&amp;tarten</translation>
    </message>
    <message>
        <source>Run the requests with the prefix cache and again without it (F5)</source>
        <translation>Die Anfragen mit Präfix-Cache und noch einmal ohne ausführen (F5)</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>with the cache</source>
        <translation>mit Cache</translation>
    </message>
    <message>
        <source>without</source>
        <translation>ohne</translation>
    </message>
    <message>
        <source>TTFT p50 (ms)</source>
        <translation>TTFT p50 (ms)</translation>
    </message>
    <message>
        <source>TTFT p99 (ms)</source>
        <translation>TTFT p99 (ms)</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>Trefferquote des Präfix-Caches</translation>
    </message>
    <message>
        <source>Prompt tokens computed</source>
        <translation>Berechnete Prompt-Tokens</translation>
    </message>
    <message>
        <source>Wall time (ms)</source>
        <translation>Gesamtzeit (ms)</translation>
    </message>
    <message>
        <source>Run to measure the prefix cache.</source>
        <translation>Starten, um den Präfix-Cache zu messen.</translation>
    </message>
    <message>
        <source>Shared s&amp;ystem prompt</source>
        <translation>Gemeinsamer S&amp;ystem-Prompt</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>A&amp;usgabe-Tokens</translation>
    </message>
    <message>
        <source>Time to first token, request by request</source>
        <translation>Zeit bis zum ersten Token, Anfrage für Anfrage</translation>
    </message>
    <message>
        <source>request</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Run to draw each request&apos;s time to first token with and without the cache.</source>
        <translation>Starten, um für jede Anfrage die Zeit bis zum ersten Token mit und ohne Cache zu zeichnen.</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
    <message>
        <source>With the cache, request 1 computed all %1 of its prompt tokens; each later one found %2 of its %3 in the cache.</source>
        <translation>Mit Cache berechnete Anfrage 1 alle %1 Prompt-Tokens selbst; jede spätere fand %2 ihrer %3 im Cache.</translation>
    </message>
    <message>
        <source>without the cache</source>
        <translation>ohne Cache</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingSafetyPanel</name>
    <message>
        <source>“%1”</source>
        <extracomment>Quotation marks around a quoted piece of text (a pattern&apos;s match, a token).</extracomment>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Write a prompt first: it is what goes through the layers.</source>
        <translation>Schreiben Sie zuerst einen Prompt: Er ist es, der durch die Schichten geht.</translation>
    </message>
    <message>
        <source>Nothing was decoded. The input filter matched in the prompt:</source>
        <translation>Nichts wurde dekodiert. Der Eingabefilter hat im Prompt getroffen:</translation>
    </message>
    <message>
        <source>cut at step %1</source>
        <translation>abgeschnitten bei Schritt %1</translation>
    </message>
    <message numerus="yes">
        <source>the model wanted %1 (%2); the ban removed %n token(s) holding %3 of the probability</source>
        <translation>
            <numerusform>das Modell wollte %1 (%2); das Verbot entfernte %Ln Token mit %3 der Wahrscheinlichkeit</numerusform>
            <numerusform>das Modell wollte %1 (%2); das Verbot entfernte %Ln Tokens mit %3 der Wahrscheinlichkeit</numerusform>
        </translation>
    </message>
    <message>
        <source>Run the prompt: the reply appears here, with each step where the ban acted numbered and the part the output filter withheld struck through.</source>
        <translation>Führen Sie den Prompt aus: Die Antwort erscheint hier, jeder Schritt, bei dem das Verbot gegriffen hat, mit seiner Nummer, und der vom Ausgabefilter zurückgehaltene Teil durchgestrichen.</translation>
    </message>
    <message>
        <source>off: no phrases</source>
        <translation>aus: keine Phrasen</translation>
    </message>
    <message>
        <source>off: no patterns</source>
        <translation>aus: keine Muster</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <source>The request was blocked before this layer.</source>
        <translation>Die Anfrage wurde vor dieser Schicht blockiert.</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>durchgelassen</translation>
    </message>
    <message>
        <source>No pattern matched the prompt: the model reads it.</source>
        <translation>Kein Muster traf den Prompt: Das Modell liest ihn.</translation>
    </message>
    <message>
        <source>At no step did the ban remove 1 % or more of the probability.</source>
        <translation>Bei keinem Schritt hat das Verbot 1 % oder mehr der Wahrscheinlichkeit entfernt.</translation>
    </message>
    <message>
        <source>No refusal pattern matched the reply: by these patterns, the model did not refuse.</source>
        <translation>Kein Ablehnungsmuster traf die Antwort: Nach diesen Mustern hat das Modell nicht abgelehnt.</translation>
    </message>
    <message>
        <source>No pattern matched the reply as it streamed.</source>
        <translation>Kein Muster traf die Antwort, während sie gestreamt wurde.</translation>
    </message>
    <message>
        <source>acted before decoding</source>
        <translation>griff vor dem Dekodieren</translation>
    </message>
    <message>
        <source>acted at step %1</source>
        <translation>griff bei Schritt %1</translation>
    </message>
    <message>
        <source>Pattern %1 matched %2 in the prompt: the request was blocked and nothing was decoded.</source>
        <translation>Muster %1 traf %2 im Prompt: Die Anfrage wurde blockiert, und nichts wurde dekodiert.</translation>
    </message>
    <message>
        <source>step %1: the model wanted %2 (%3)</source>
        <translation>Schritt %1: Das Modell wollte %2 (%3)</translation>
    </message>
    <message numerus="yes">
        <source>At %n step(s) the ban removed 1 % or more of the probability:</source>
        <translation>
            <numerusform>Bei %Ln Schritt entfernte das Verbot 1 % oder mehr der Wahrscheinlichkeit:</numerusform>
            <numerusform>Bei %Ln Schritten entfernte das Verbot 1 % oder mehr der Wahrscheinlichkeit:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(and %n more)</source>
        <translation>
            <numerusform>(und %Ln weiterer)</numerusform>
            <numerusform>(und %Ln weitere)</numerusform>
        </translation>
    </message>
    <message>
        <source>Refusal pattern %1 matched %2 at step %3: the model&apos;s own words, recognised by a pattern, not by a classifier.</source>
        <translation>Ablehnungsmuster %1 traf %2 bei Schritt %3: die eigenen Worte des Modells, erkannt von einem Muster, nicht von einem Klassifikator.</translation>
    </message>
    <message>
        <source>Pattern %1 matched %2 at step %3: the reply was cut there and nothing after it was generated.</source>
        <translation>Muster %1 traf %2 bei Schritt %3: Die Antwort wurde dort abgeschnitten, und danach wurde nichts mehr erzeugt.</translation>
    </message>
    <message numerus="yes">
        <source>A stream had already sent %n character(s) of the match.</source>
        <translation>
            <numerusform>Ein Stream hatte schon %Ln Zeichen des Treffers gesendet.</numerusform>
            <numerusform>Ein Stream hatte schon %Ln Zeichen des Treffers gesendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Blocked by the input filter: the model read nothing, and the user sees only the refusal the server sends.</source>
        <translation>Vom Eingabefilter blockiert: Das Modell hat nichts gelesen, und der Nutzer sieht nur die Ablehnung, die der Server schickt.</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.</source>
        <translation>
            <numerusform>%Ln Schritt in %1 ms dekodiert; der Nutzer sieht %2 der %3 Zeichen, die das Modell geschrieben hat.</numerusform>
            <numerusform>%Ln Schritte in %1 ms dekodiert; der Nutzer sieht %2 der %3 Zeichen, die das Modell geschrieben hat.</numerusform>
        </translation>
    </message>
    <message>
        <source>A request passes four layers on its way through a server. Each is shown here for what it is: two lists of patterns, a ban enforced while the model decodes, and the model&apos;s own words. Edit the lists and run.</source>
        <translation>Eine Anfrage durchläuft auf ihrem Weg durch einen Server vier Schichten. Jede wird hier als das gezeigt, was sie ist: zwei Musterlisten, ein Verbot, das beim Dekodieren durchgesetzt wird, und die eigenen Worte des Modells. Bearbeiten Sie die Listen und führen Sie aus.</translation>
    </message>
    <message>
        <source>&amp;Prompt (sent through the model&apos;s chat template)</source>
        <translation>&amp;Prompt (über die Chat-Vorlage des Modells gesendet)</translation>
    </message>
    <message>
        <source>1. &amp;Input filter: regular expressions, one per line</source>
        <translation>1. E&amp;ingabefilter: reguläre Ausdrücke, einer pro Zeile</translation>
    </message>
    <message>
        <source>2. &amp;Banned phrases: plain text, one per line</source>
        <translation>2. &amp;Verbotene Phrasen: einfacher Text, eine pro Zeile</translation>
    </message>
    <message>
        <source>3. &amp;Refusal patterns: regular expressions, one per line</source>
        <translation>3. A&amp;blehnungsmuster: reguläre Ausdrücke, eines pro Zeile</translation>
    </message>
    <message>
        <source>4. &amp;Output filter: regular expressions, one per line</source>
        <translation>4. A&amp;usgabefilter: reguläre Ausdrücke, einer pro Zeile</translation>
    </message>
    <message>
        <source>I&amp;gnore case</source>
        <translation>&amp;Groß-/Kleinschreibung ignorieren</translation>
    </message>
    <message>
        <source>Patterns match either case; banned phrases match ASCII letters in either case</source>
        <translation>Muster treffen Groß- wie Kleinschreibung; verbotene Phrasen treffen ASCII-Buchstaben in beiden Schreibungen</translation>
    </message>
    <message>
        <source>&amp;Max tokens</source>
        <translation>&amp;Max. Tokens</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>Bei&amp;spiele</translation>
    </message>
    <message>
        <source>Put the lesson&apos;s prompt and lists back</source>
        <translation>Den Prompt und die Listen der Lektion wiederherstellen</translation>
    </message>
    <message>
        <source>Run the prompt through the four layers on the loaded model (greedy)</source>
        <translation>Den Prompt auf dem geladenen Modell durch die vier Schichten schicken (Greedy)</translation>
    </message>
    <message>
        <source>1  Input filter</source>
        <translation>1  Eingabefilter</translation>
    </message>
    <message>
        <source>Regular expressions over the prompt. A match blocks the request before the model reads it.</source>
        <translation>Reguläre Ausdrücke über den Prompt. Ein Treffer blockiert die Anfrage, bevor das Modell sie liest.</translation>
    </message>
    <message>
        <source>2  Banned phrases</source>
        <translation>2  Verbotene Phrasen</translation>
    </message>
    <message>
        <source>A sampler stage: at every step it removes each token that would complete a phrase, however the phrase is split into tokens.</source>
        <translation>Eine Sampler-Stufe: Bei jedem Schritt entfernt sie jedes Token, das eine Phrase vervollständigen würde, egal wie die Phrase in Tokens zerlegt wird.</translation>
    </message>
    <message>
        <source>3  The model&apos;s own refusal</source>
        <translation>3  Die Ablehnung durch das Modell selbst</translation>
    </message>
    <message>
        <source>No filter at all: the model&apos;s own words. The refusal patterns only recognise them in the reply, a pattern match, not a classifier.</source>
        <translation>Gar kein Filter: die eigenen Worte des Modells. Die Ablehnungsmuster erkennen sie nur in der Antwort, ein Mustervergleich, kein Klassifikator.</translation>
    </message>
    <message>
        <source>4  Output filter</source>
        <translation>4  Ausgabefilter</translation>
    </message>
    <message>
        <source>Regular expressions over the reply after every token. At the first match the reply is cut; what was streamed before stays sent.</source>
        <translation>Reguläre Ausdrücke über die Antwort nach jedem Token. Beim ersten Treffer wird die Antwort abgeschnitten; was vorher gestreamt wurde, ist schon gesendet.</translation>
    </message>
    <message>
        <source>What the model wrote (numbers: steps where the ban acted; struck through: withheld by the output filter)</source>
        <translation>Was das Modell geschrieben hat (Zahlen: Schritte, bei denen das Verbot griff; durchgestrichen: vom Ausgabefilter zurückgehalten)</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>Start (F5)</translation>
    </message>
    <message>
        <source>; </source>
        <extracomment>Between the items of a list inside a sentence.</extracomment>
        <translation>; </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingStreamingPanel</name>
    <message>
        <source>#%1: %2 tokens, TTFT %3 ms</source>
        <translation>#%1: %2 Tokens, TTFT %3 ms</translation>
    </message>
    <message>
        <source>This mode has no finished request to show.</source>
        <translation>Dieser Modus hat keine fertige Anfrage zum Zeigen.</translation>
    </message>
    <message>
        <source>Run a load on the Load tab first: every request of that run can be shown here.</source>
        <translation>Starten Sie zuerst eine Last auf dem Tab „Last“: Jede Anfrage dieses Laufs kann hier gezeigt werden.</translation>
    </message>
    <message numerus="yes">
        <source>With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until all %n token(s) are there at once.</source>
        <translation>
            <numerusform>Mit Streaming liest der Nutzer von Anfrage %1 den ersten Text nach %2 ms (ihre Zeit bis zum ersten Token) und dann im Mittel alle %3 ms ein Token. Ohne Streaming bleibt der Bildschirm %4 ms leer, bis sein %Ln Token da ist.</numerusform>
            <numerusform>Mit Streaming liest der Nutzer von Anfrage %1 den ersten Text nach %2 ms (ihre Zeit bis zum ersten Token) und dann im Mittel alle %3 ms ein Token. Ohne Streaming bleibt der Bildschirm %4 ms leer, bis alle %Ln Tokens auf einmal da sind.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Batching</source>
        <translation>&amp;Batching</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>kontinuierlich</translation>
    </message>
    <message>
        <source>static</source>
        <translation>statisch</translation>
    </message>
    <message>
        <source>Re&amp;quest</source>
        <translation>An&amp;frage</translation>
    </message>
    <message>
        <source>Run a load on the Load tab first.</source>
        <translation>Starten Sie zuerst eine Last auf dem Tab „Last“.</translation>
    </message>
    <message>
        <source>What one user of the last load run saw. The filled area is how much of the answer is on the screen; the grey part is waiting. A long flat stretch is a step in which the batch also read another request&apos;s prompt (prefill).</source>
        <translation>Was ein Nutzer des letzten Lastlaufs gesehen hat. Die gefüllte Fläche ist, wie viel der Antwort auf dem Bildschirm steht; der graue Teil ist Warten. Ein langes flaches Stück ist ein Schritt, in dem der Batch auch den Prompt einer anderen Anfrage gelesen hat (Prefill).</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategiesController</name>
    <message>
        <source>The prompt is empty: write a few words for every strategy to continue.</source>
        <translation>Der Prompt ist leer: ein paar Wörter schreiben, die jede Strategie fortsetzen kann.</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>Es ist kein Modell geladen.</translation>
    </message>
    <message>
        <source>Add at least one column (a strategy) to compare.</source>
        <translation>Mindestens eine Spalte (eine Strategie) zum Vergleichen hinzufügen.</translation>
    </message>
    <message>
        <source>Run the strategies first: there is nothing to export yet.</source>
        <translation>Zuerst die Strategien ausführen: Es gibt noch nichts zu exportieren.</translation>
    </message>
    <message>
        <source>Cannot write the trace to %1: %2</source>
        <translation>Der Trace lässt sich nicht nach %1 schreiben: %2</translation>
    </message>
    <message>
        <source>The prompt (%1 tokens) and %2 new tokens need %3 positions, but the model&apos;s context holds %4: lower Max tokens or shorten the prompt.</source>
        <translation>Der Prompt (%1 Tokens) und %2 neue Tokens brauchen %3 Positionen, der Kontext des Modells fasst aber nur %4: „Max. Tokens“ senken oder den Prompt kürzen.</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategiesPage</name>
    <message>
        <source>&amp;Strategies</source>
        <translation>&amp;Strategien</translation>
    </message>
    <message>
        <source>Greedy, beam search and sampling side by side on one prompt, the comparison table measured, and the beam-search tree</source>
        <translation>Greedy, Strahlsuche und Sampling nebeneinander auf einem Prompt, die Vergleichstabelle gemessen, und der Baum der Strahlsuche</translation>
    </message>
    <message>
        <source>Measuring the comparison table: %1 of %2 (each column again with three seeds, then a width-16 beam)…</source>
        <translation>Vergleichstabelle wird gemessen: %1 von %2 (jede Spalte erneut mit drei Seeds, dann ein Strahl der Breite 16)…</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Running %n column(s) on one prefill of the prompt…</source>
        <translation>
            <numerusform>%Ln Spalte läuft auf einem Prefill des Prompts…</numerusform>
            <numerusform>%Ln Spalten laufen auf einem Prefill des Prompts…</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Gestoppt.</translation>
    </message>
    <message numerus="yes">
        <source>Prompt: %n token(s), prefilled once in %1 ms; every column forked from its KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.</source>
        <translation>
            <numerusform>Prompt: %Ln Token, ein Prefill in %1 ms; jede Spalte zweigt von seinen KV-Blöcken ab. KV-Pool in der Spitze: %2 KiB, durch Teilen %3 KiB gespart.</numerusform>
            <numerusform>Prompt: %Ln Tokens, ein Prefill in %1 ms; jede Spalte zweigt von seinen KV-Blöcken ab. KV-Pool in der Spitze: %2 KiB, durch Teilen %3 KiB gespart.</numerusform>
        </translation>
    </message>
    <message>
        <source>Columns done; measuring the comparison table…</source>
        <translation>Spalten fertig; die Vergleichstabelle wird gemessen…</translation>
    </message>
    <message>
        <source>Stopped while measuring the table.</source>
        <translation>Beim Messen der Tabelle gestoppt.</translation>
    </message>
    <message numerus="yes">
        <source>Table measured: every column re-run with %n seed(s); the width-%1 beam took %2 ms.</source>
        <translation>
            <numerusform>Tabelle gemessen: jede Spalte erneut mit %Ln Seed ausgeführt; der Strahl der Breite %1 brauchte %2 ms.</numerusform>
            <numerusform>Tabelle gemessen: jede Spalte erneut mit %Ln Seeds ausgeführt; der Strahl der Breite %1 brauchte %2 ms.</numerusform>
        </translation>
    </message>
    <message>
        <source>Positions each column may use: the prompt and its new tokens</source>
        <translation>Positionen, die jede Spalte belegen darf: der Prompt und seine neuen Tokens</translation>
    </message>
    <message>
        <source>Strategies side by side</source>
        <translation>Strategien nebeneinander</translation>
    </message>
    <message>
        <source>Comparison table</source>
        <translation>Vergleichstabelle</translation>
    </message>
    <message>
        <source>Next-token distribution</source>
        <translation>Verteilung des nächsten Tokens</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Columns as an image…</source>
        <translation>Spalten als Bild…</translation>
    </message>
    <message>
        <source>Export the columns</source>
        <translation>Spalten exportieren</translation>
    </message>
    <message>
        <source>Comparison table as an image…</source>
        <translation>Vergleichstabelle als Bild…</translation>
    </message>
    <message>
        <source>Export the table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>Beam tree as an image…</source>
        <translation>Strahlbaum als Bild…</translation>
    </message>
    <message>
        <source>Export the tree</source>
        <translation>Baum exportieren</translation>
    </message>
    <message>
        <source>Node distribution chart as an image…</source>
        <translation>Verteilungsdiagramm des Knotens als Bild…</translation>
    </message>
    <message>
        <source>Export the chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>Runs as a JSONL trace…</source>
        <translation>Läufe als JSONL-Trace…</translation>
    </message>
    <message>
        <source>Export the trace</source>
        <translation>Trace exportieren</translation>
    </message>
    <message>
        <source>&amp;Prompt</source>
        <translation>&amp;Prompt</translation>
    </message>
    <message>
        <source>&amp;Max tokens</source>
        <translation>&amp;Max. Tokens</translation>
    </message>
    <message>
        <source>&amp;Run all</source>
        <translation>Alle ausfüh&amp;ren</translation>
    </message>
    <message>
        <source>Run every column on the prompt (F5)</source>
        <translation>Jede Spalte auf dem Prompt ausführen (F5)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the run or the search (Esc)</source>
        <translation>Den Lauf oder die Suche anhalten (Esc)</translation>
    </message>
    <message>
        <source>Measure the &amp;table</source>
        <translation>&amp;Tabelle messen</translation>
    </message>
    <message>
        <source>After the columns: each column again with three seeds, and a width-16 beam for the likeliest text</source>
        <translation>Nach den Spalten: jede Spalte erneut mit drei Seeds und ein Strahl der Breite 16 für den wahrscheinlichsten Text</translation>
    </message>
    <message>
        <source>&amp;Add column…</source>
        <translation>&amp;Neue Spalte…</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Spalten</translation>
    </message>
    <message>
        <source>Beam tree</source>
        <translation>Strahlbaum</translation>
    </message>
    <message>
        <source>There is no node distribution to export: click a node in the beam tree first.</source>
        <translation>Es gibt keine Knotenverteilung zum Exportieren: Zuerst einen Knoten im Suchbaum der Strahlsuche anklicken.</translation>
    </message>
    <message>
        <source>Stopped before the table was measured.</source>
        <translation>Gestoppt, bevor die Tabelle gemessen wurde.</translation>
    </message>
    <message>
        <source>Run all with “Measure the table” ticked fills this table.</source>
        <translation>„Alle ausführen“ mit angehaktem „Tabelle messen“ füllt diese Tabelle.</translation>
    </message>
    <message>
        <source>Saved the runs as a JSONL trace: %1</source>
        <translation>Die Läufe als JSONL-Trace gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Gespeichert: %1</translation>
    </message>
    <message>
        <source>Every cell is measured in this run: deterministic? each column re-run with three seeds; diverse? the bigram overlap of those runs (and of the final beams); likeliest text? the column&apos;s log-prob against the best a width-16 beam finds for as many tokens; speed: the time per step and the tokens evaluated per step against greedy. Hover a cell for its numbers.</source>
        <translation>Jede Zelle wird in diesem Lauf gemessen: deterministisch? jede Spalte erneut mit drei Seeds ausgeführt; vielfältig? die Bigramm-Überlappung dieser Läufe (und der finalen Strahlen); wahrscheinlichster Text? die Log-Prob der Spalte gegen das Beste, das ein Strahl der Breite 16 für ebenso viele Tokens findet; Geschwindigkeit: die Zeit pro Schritt und die ausgewerteten Tokens pro Schritt gegenüber Greedy. Für die Zahlen mit der Maus über eine Zelle fahren.</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>E&amp;xport</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategyColumn</name>
    <message>
        <source>Greedy</source>
        <translation>Greedy</translation>
    </message>
    <message>
        <source>Sampling T=%1, top-p %2</source>
        <translation>Sampling T=%1, Top-p %2</translation>
    </message>
    <message>
        <source>Diverse beams k=%1, %2 groups</source>
        <translation>Diverse Strahlen k=%1, %2 Gruppen</translation>
    </message>
    <message>
        <source>Beam search k=%1</source>
        <translation>Strahlsuche k=%1</translation>
    </message>
    <message>
        <source>searching: step %1 of at most %2</source>
        <translation>Suche: Schritt %1 von höchstens %2</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>noch nicht ausgeführt</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>generiert…</translation>
    </message>
    <message>
        <source>log-prob %1 · perplexity %2</source>
        <translation>Log-Prob %1 · Perplexität %2</translation>
    </message>
    <message>
        <source>distinct-1 %1 · distinct-2 %2</source>
        <translation>distinct-1 %1 · distinct-2 %2</translation>
    </message>
    <message>
        <source>KV blocks %1 (%2 shared)</source>
        <translation>KV-Blöcke %1 (%2 geteilt)</translation>
    </message>
    <message numerus="yes">
        <source>loop: a %n-token block repeated</source>
        <translation>
            <numerusform>Schleife: ein Block aus %Ln Token wiederholt</numerusform>
            <numerusform>Schleife: ein Block aus %Ln Tokens wiederholt</numerusform>
        </translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation>(gestoppt)</translation>
    </message>
    <message>
        <source>ended with an end-of-text token</source>
        <translation>endete mit einem Textende-Token</translation>
    </message>
    <message>
        <source>&lt;b&gt;Final beams&lt;/b&gt; (overlap %1, shared start %2 tokens):</source>
        <translation>&lt;b&gt;Finale Strahlen&lt;/b&gt; (Überlappung %1, gemeinsamer Anfang %2 Tokens):</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Change this column&apos;s strategy and settings</source>
        <translation>Strategie und Einstellungen dieser Spalte ändern</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove this column</source>
        <translation>Diese Spalte entfernen</translation>
    </message>
    <message numerus="yes">
        <source>All %n begin with: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>
            <numerusform>%Ln Strahl beginnt mit: &lt;i&gt;%1&lt;/i&gt;</numerusform>
            <numerusform>Alle %Ln beginnen mit: &lt;i&gt;%1&lt;/i&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>score %1</source>
        <translation>Score %1</translation>
    </message>
    <message>
        <source>%1 tokens/s · %2 ms per step</source>
        <translation>%1 Tokens/s · %2 ms pro Schritt</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) evaluated</source>
        <translation>
            <numerusform>%Ln Token ausgewertet</numerusform>
            <numerusform>%Ln Tokens ausgewertet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n forward pass(es)</source>
        <translation>
            <numerusform>%Ln Forward-Pass</numerusform>
            <numerusform>%Ln Forward-Passes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::UserGuideDialog</name>
    <message>
        <source>The user guide is missing from this build (:/help/desktop-app.md).</source>
        <translation>Das Benutzerhandbuch fehlt in diesem Build (:/help/desktop-app.md).</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <source>a word in the guide</source>
        <translation>ein Wort im Handbuch</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>Weitersuchen</translation>
    </message>
    <message>
        <source>The next place the word appears (%1)</source>
        <translation>Die nächste Stelle, an der das Wort vorkommt (%1)</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::BeamTreeLegend</name>
    <message>
        <source>kept (running beam)</source>
        <translation>behalten (laufender Strahl)</translation>
    </message>
    <message>
        <source>pruned (#rank, p when cut)</source>
        <translation>verworfen (#Rang, p beim Verwerfen)</translation>
    </message>
    <message>
        <source>finished (#n-best rank)</source>
        <translation>fertig (#Rang unter den n besten)</translation>
    </message>
    <message>
        <source>evicted (pushed out of the best)</source>
        <translation>verdrängt (aus den Besten geschoben)</translation>
    </message>
    <message>
        <source>n-best path</source>
        <translation>n-best-Pfad</translation>
    </message>
    <message>
        <source>KV blocks ⇄ shared with another beam</source>
        <translation>KV-Blöcke ⇄ mit einem anderen Strahl geteilt</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>Gruppe %1</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::BeamTreeView</name>
    <message>
        <source>prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>width %1 · α %2</source>
        <translation>Breite %1 · α %2</translation>
    </message>
    <message>
        <source>cut #%1 · p %2</source>
        <translation>verworfen #%1 · p %2</translation>
    </message>
    <message>
        <source>#%1 · %2</source>
        <translation>#%1 · %2</translation>
    </message>
    <message>
        <source>evicted · s %1</source>
        <translation>verdrängt · s %1</translation>
    </message>
    <message>
        <source>lp %1 · s %2</source>
        <translation>lp %1 · s %2</translation>
    </message>
    <message>
        <source>KV %1 ⇄%2</source>
        <translation>KV %1 ⇄%2</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source>The prompt: every hypothesis starts here.</source>
        <translation>Der Prompt: Hier beginnt jede Hypothese.</translation>
    </message>
    <message>
        <source>Beam width %1, length penalty α = %2, %3 steps</source>
        <translation>Strahlbreite %1, Längenstrafe α = %2, %3 Schritte</translation>
    </message>
    <message>
        <source>“%1” (token %2), step %3</source>
        <translation>„%1“ (Token %2), Schritt %3</translation>
    </message>
    <message>
        <source>Kept: running beam %1 of its step (candidate #%2)</source>
        <translation>Behalten: laufender Strahl %1 seines Schritts (Kandidat #%2)</translation>
    </message>
    <message>
        <source>Pruned: candidate #%1 of its step, p = %2 when it was cut</source>
        <translation>Verworfen: Kandidat #%1 seines Schritts, p = %2 beim Verwerfen</translation>
    </message>
    <message>
        <source>Finished: hypothesis #%1 of the n best</source>
        <translation>Fertig: Hypothese #%1 der n besten</translation>
    </message>
    <message>
        <source>Finished (among the best kept, not returned)</source>
        <translation>Fertig (unter den besten behalten, nicht zurückgegeben)</translation>
    </message>
    <message>
        <source>Evicted: it finished, but better hypotheses pushed it out of the best %1</source>
        <translation>Verdrängt: fertig, aber bessere Hypothesen schoben sie aus den besten %1</translation>
    </message>
    <message>
        <source>An end token: the hypothesis stops here.</source>
        <translation>Ein End-Token: Die Hypothese endet hier.</translation>
    </message>
    <message>
        <source>log p %1 (p %2) · cumulative %3 · score %4</source>
        <translation>log p %1 (p %2) · kumuliert %3 · Score %4</translation>
    </message>
    <message>
        <source>Group %1, diversity penalty %2</source>
        <translation>Gruppe %1, Diversitätsstrafe %2</translation>
    </message>
    <message>
        <source>KV blocks %1 (%2 shared with another beam of this step)</source>
        <translation>KV-Blöcke %1 (%2 mit einem anderen Strahl dieses Schritts geteilt)</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::DistributionChart</name>
    <message>
        <source>Next-token distribution</source>
        <translation>Verteilung des nächsten Tokens</translation>
    </message>
    <message>
        <source>before the chain</source>
        <translation>vor der Kette</translation>
    </message>
    <message>
        <source>after the chain</source>
        <translation>nach der Kette</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation>kumuliert</translation>
    </message>
    <message>
        <source>top-k = %1</source>
        <translation>Top-k = %1</translation>
    </message>
    <message>
        <source>top-p = %1</source>
        <translation>Top-p = %1</translation>
    </message>
    <message numerus="yes">
        <source>top-k keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>Top-k behält %Ln Token (mehr als die %1 gezeigten)</numerusform>
            <numerusform>Top-k behält %Ln Tokens (mehr als die %1 gezeigten)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>top-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>Top-p behält %Ln Token (mehr als die %1 gezeigten)</numerusform>
            <numerusform>Top-p behält %Ln Tokens (mehr als die %1 gezeigten)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 removed nothing</source>
        <translation>%1 hat nichts entfernt</translation>
    </message>
    <message>
        <source>min-p = %1</source>
        <translation>Min-p = %1</translation>
    </message>
    <message numerus="yes">
        <source>min-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>Min-p behält %Ln Token (mehr als die %1 gezeigten)</numerusform>
            <numerusform>Min-p behält %Ln Tokens (mehr als die %1 gezeigten)</numerusform>
        </translation>
    </message>
    <message>
        <source>probability (log scale)</source>
        <translation>Wahrscheinlichkeit (log.)</translation>
    </message>
    <message>
        <source>p (log)</source>
        <translation>p (log)</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>cum.</source>
        <translation>kum.</translation>
    </message>
    <message>
        <source>token label %1 hidden</source>
        <translation>Token-Beschriftung %1 ausgeblendet</translation>
    </message>
    <message>
        <source>model probability</source>
        <translation>Modellwahrscheinlichkeit</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (id %2): p %3 before the chain, %4 after</source>
        <translation>„%1“ (ID %2): p %3 vor der Kette, %4 danach</translation>
    </message>
    <message>
        <source>Forbidden by the grammar: this token cannot continue the text as the constraint requires.</source>
        <translation>Von der Grammatik verboten: Dieses Token kann den Text nicht so fortsetzen, wie es die Vorgabe verlangt.</translation>
    </message>
    <message>
        <source>forbidden by the grammar</source>
        <translation>von der Grammatik verboten</translation>
    </message>
    <message>
        <source>model p</source>
        <translation>Modell-p</translation>
    </message>
    <message>
        <source>before</source>
        <translation>vorher</translation>
    </message>
    <message>
        <source>after</source>
        <translation>nachher</translation>
    </message>
    <message>
        <source>forbidden</source>
        <translation>verboten</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::GanttView</name>
    <message>
        <source>prefill</source>
        <translation>Prefill</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>Decode</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>Padding</translation>
    </message>
    <message>
        <source>waiting for a slot</source>
        <translation>wartet auf einen Platz</translation>
    </message>
    <message numerus="yes">
        <source>step %1: prefill, %n prompt token(s)</source>
        <translation>
            <numerusform>Schritt %1: Prefill, %Ln Prompt-Token</numerusform>
            <numerusform>Schritt %1: Prefill, %Ln Prompt-Tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1: decode, one token</source>
        <translation>Schritt %1: Decode, ein Token</translation>
    </message>
    <message>
        <source>step %1: padding (finished, its slot still in the static batch)</source>
        <translation>Schritt %1: Padding (fertig, sein Platz noch im statischen Batch)</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::KvBlockTableView</name>
    <message>
        <source>sequence %1</source>
        <translation>Sequenz %1</translation>
    </message>
    <message numerus="yes">
        <source>Paged cache: each sequence&apos;s block table (logical block → pool block, %n position(s) per block)</source>
        <translation>
            <numerusform>Paged Cache: die Blocktabelle jeder Sequenz (logischer Block → Pool-Block, %Ln Position pro Block)</numerusform>
            <numerusform>Paged Cache: die Blocktabelle jeder Sequenz (logischer Block → Pool-Block, %Ln Positionen pro Block)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The pool: %n block(s)</source>
        <translation>
            <numerusform>Der Pool: %Ln Block</numerusform>
            <numerusform>Der Pool: %Ln Blöcke</numerusform>
        </translation>
    </message>
    <message>
        <source>Contiguous allocator, for comparison: each sequence reserves the whole context (%1 positions)</source>
        <translation>Zusammenhängende Zuteilung, zum Vergleich: jede Sequenz reserviert den ganzen Kontext (%1 Positionen)</translation>
    </message>
    <message>
        <source>in use by one sequence</source>
        <translation>von einer Sequenz belegt</translation>
    </message>
    <message>
        <source>free</source>
        <translation>frei</translation>
    </message>
    <message>
        <source>reserved, not filled</source>
        <translation>reserviert, nicht gefüllt</translation>
    </message>
    <message>
        <source>%1 (its block %2, %3 of %4 slots)</source>
        <translation>%1 (sein Block %2, %3 von %4 Plätzen)</translation>
    </message>
    <message>
        <source>Pool block %1: free</source>
        <translation>Pool-Block %1: frei</translation>
    </message>
    <message>
        <source>Pool block %1: refcount 1</source>
        <translation>Pool-Block %1: Referenzzähler 1</translation>
    </message>
    <message>
        <source>Pool block %1: refcount %2, shared (a write copies it first)</source>
        <translation>Pool-Block %1: Referenzzähler %2, geteilt (ein Schreiben kopiert ihn zuerst)</translation>
    </message>
    <message>
        <source>Used by %1</source>
        <translation>Genutzt von %1</translation>
    </message>
    <message>
        <source>%1 per block (K and V, all layers)</source>
        <translation>%1 pro Block (K und V, alle Schichten)</translation>
    </message>
    <message>
        <source>%1, logical block %2 → pool block %3</source>
        <translation>%1, logischer Block %2 → Pool-Block %3</translation>
    </message>
    <message>
        <source>%1 of %2 slots used (positions %3–%4)</source>
        <translation>%1 von %2 Plätzen belegt (Positionen %3–%4)</translation>
    </message>
    <message>
        <source>0 of %1 slots used</source>
        <translation>0 von %1 Plätzen belegt</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n position(s)</source>
        <translation>
            <numerusform>%1: %Ln Position</numerusform>
            <numerusform>%1: %Ln Positionen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n block(s) in its table</source>
        <translation>
            <numerusform>%Ln Block in seiner Tabelle</numerusform>
            <numerusform>%Ln Blöcke in seiner Tabelle</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 of %3 reserved slots hold positions; the rest stays reserved, unused</source>
        <translation>%1: %2 von %3 reservierten Plätzen enthalten Positionen; der Rest bleibt reserviert und ungenutzt</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>shared (copy-on-write), one colour per pool block</source>
        <translation>geteilt (Copy-on-Write), eine Farbe je Pool-Block</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::KvHeatmapView</name>
    <message>
        <source>Nothing to show yet.</source>
        <translation>Noch nichts anzuzeigen.</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>keine Daten</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>value and unit</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>logarithmische Skala</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>position %1</source>
        <translation>Position %1</translation>
    </message>
    <message>
        <source>positions %1–%2</source>
        <translation>Positionen %1–%2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <comment>position and token</comment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>quantity: value</comment>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>+%1 weitere</translation>
    </message>
    <message>
        <source>This pixel covers positions %1–%2 and shows their largest value.</source>
        <translation>Dieses Pixel umfasst die Positionen %1–%2 und zeigt deren größten Wert.</translation>
    </message>
    <message>
        <source>%1 from %2 (pale) to %3 (strongest)</source>
        <translation>%1 von %2 (blass) bis %3 (am stärksten)</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::MaskStrip</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>No constraint at this step.</source>
        <translation>In diesem Schritt galt keine Vorgabe.</translation>
    </message>
    <message numerus="yes">
        <source>The grammar removed %1 of the probability: it forbade %n token(s).</source>
        <translation>
            <numerusform>Die Grammatik hat %1 der Wahrscheinlichkeit entfernt: Sie hat %Ln Token verboten.</numerusform>
            <numerusform>Die Grammatik hat %1 der Wahrscheinlichkeit entfernt: Sie hat %Ln Token verboten.</numerusform>
        </translation>
    </message>
    <message>
        <source>The most probable of them: “%1” (p = %2).</source>
        <translation>Das wahrscheinlichste davon: „%1“ (p = %2).</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::MemoryBarsView</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV-Cache</translation>
    </message>
    <message>
        <source>over capacity</source>
        <translation>über der Kapazität</translation>
    </message>
    <message>
        <source>%1: capacity %2</source>
        <translation>%1: Kapazität %2</translation>
    </message>
    <message>
        <source>weights %1, KV cache %2</source>
        <translation>Gewichte %1, KV-Cache %2</translation>
    </message>
    <message>
        <source>Weights and KV cache together do not fit: the red part is over capacity.</source>
        <translation>Gewichte und KV-Cache passen zusammen nicht hinein: der rote Teil liegt über der Kapazität.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>segment name and size</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>KV</source>
        <translation>KV</translation>
    </message>
    <message>
        <source>over</source>
        <translation>zu viel</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>Speicher</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::ProbabilityLegend</name>
    <message>
        <source>Each token&apos;s background shows how probable the sampler made the token it chose: pale = it was a long shot, saturated = it was nearly certain.</source>
        <translation>Der Hintergrund jedes Tokens zeigt, wie wahrscheinlich der Sampler das gewählte Token gemacht hat: blass = ein Außenseiter, kräftig = fast sicher.</translation>
    </message>
    <message>
        <source>Shading: probability of the chosen token</source>
        <translation>Schattierung: Wahrscheinlichkeit des gewählten Tokens</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Shading:</source>
        <translation>Schattierung:</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::SamplerWaterfall</name>
    <message>
        <source>kept %1</source>
        <translation>behalten %1</translation>
    </message>
    <message>
        <source>H %1 nats</source>
        <translation>H %1 nats</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>H %1 bits</source>
        <translation>H %1 Bit</translation>
    </message>
    <message>
        <source>H is the entropy, how uncertain the choice still is: 0 bits means one certain token, 1 bit is like a coin toss, n bits like 2^n equally likely tokens.</source>
        <translation>H ist die Entropie, wie unsicher die Wahl noch ist: 0 Bit heißt ein sicheres Token, 1 Bit ist wie ein Münzwurf, n Bit wie 2^n gleich wahrscheinliche Tokens.</translation>
    </message>
    <message>
        <source>H is the entropy, how uncertain the choice still is: 0 nats means one certain token, ln 2 = 0.69 nats is like a coin toss.</source>
        <translation>H ist die Entropie, wie unsicher die Wahl noch ist: 0 Nat heißt ein sicheres Token, ln 2 = 0,69 Nat ist wie ein Münzwurf.</translation>
    </message>
    <message>
        <source>%1: bars</source>
        <translation>%1: Balken</translation>
    </message>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1 %</translation>
    </message>
    <message>
        <source>&gt; %1 %</source>
        <translation>&gt; %1 %</translation>
    </message>
    <message>
        <source>allowed %1 of %2</source>
        <translation>erlaubt %1 von %2</translation>
    </message>
    <message>
        <source>“%1” %2 %</source>
        <translation>„%1“ %2 %</translation>
    </message>
    <message>
        <source>Forbidden this step, most probable first: %1</source>
        <translation>In diesem Schritt verboten, wahrscheinlichste zuerst: %1</translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation>entfernt %1</translation>
    </message>
    <message>
        <source>kept %1 of its input by raw p · %2 of raw</source>
        <translation>behält %1 der Eingabe (Roh-p) · %2 des Rohen</translation>
    </message>
    <message>
        <source>kept %1 of its input · %2 of raw</source>
        <translation>behält %1 der Eingabe · %2 des Rohen</translation>
    </message>
    <message>
        <source>Kept: how many tokens survive, the share of the probability they carry in the distribution this stage was given (as the stages before it left it: top-p 0.95 keeps at least 95 % of it), and their share of the model&apos;s raw distribution.</source>
        <translation>Behalten: wie viele Tokens übrig bleiben, welchen Anteil der Wahrscheinlichkeit sie in der Verteilung tragen, die diese Stufe erhalten hat (so, wie die Stufen davor sie hinterlassen haben: Top-p 0,95 behält mindestens 95 % davon), und ihr Anteil an der rohen Verteilung des Modells.</translation>
    </message>
    <message>
        <source>Kept: how many tokens survive, and the share of the probability they carry, of what this stage was given and of the model&apos;s raw distribution, both weighed with the raw probabilities (temperature 1): this session was saved before the share of what each stage was given was recorded. After another temperature the stages see sharper or flatter probabilities: top-p 0.95 then keeps 95 % of what it sees, which can be a different share by raw p.</source>
        <translation>Behalten: wie viele Tokens übrig bleiben und welchen Anteil der Wahrscheinlichkeit sie tragen – an dem, was diese Stufe erhalten hat, und an der rohen Verteilung des Modells, beide mit den rohen Wahrscheinlichkeiten (Temperatur 1) gewichtet: Diese Sitzung wurde gespeichert, bevor der Anteil an der Eingabe jeder Stufe aufgezeichnet wurde. Bei einer anderen Temperatur sehen die Stufen schärfere oder flachere Wahrscheinlichkeiten: Top-p 0,95 behält dann 95 % dessen, was es sieht, was nach rohem p ein anderer Anteil sein kann.</translation>
    </message>
    <message>
        <source>This step it changed nothing: it passed on what it was given (%1).</source>
        <translation>In diesem Schritt hat sie nichts geändert und gibt weiter, was sie bekommen hat (%1).</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>unverändert</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::StreamingTimelineView</name>
    <message>
        <source>with streaming</source>
        <translation>mit Streaming</translation>
    </message>
    <message>
        <source>without streaming</source>
        <translation>ohne Streaming</translation>
    </message>
    <message>
        <source>token %1 of %2 appears at %3 ms</source>
        <translation>Token %1 von %2 erscheint bei %3 ms</translation>
    </message>
    <message>
        <source>nothing on screen yet: the first token comes at %1 ms</source>
        <translation>noch nichts auf dem Bildschirm: Das erste Token kommt bei %1 ms</translation>
    </message>
    <message>
        <source>all %1 tokens appear at once at %2 ms</source>
        <translation>alle %1 Tokens erscheinen auf einmal bei %2 ms</translation>
    </message>
    <message>
        <source>nothing on screen until the whole answer is ready at %1 ms</source>
        <translation>nichts auf dem Bildschirm, bis die ganze Antwort bei %1 ms fertig ist</translation>
    </message>
    <message>
        <source>first text at %1 ms</source>
        <translation>erster Text bei %1 ms</translation>
    </message>
    <message>
        <source>everything at %1 ms</source>
        <translation>alles bei %1 ms</translation>
    </message>
    <message>
        <source>ms since the request arrived</source>
        <translation>ms seit Ankunft der Anfrage</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::TokenStrip</name>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1 %</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>chosen by you</source>
        <translation>selbst gewählt</translation>
    </message>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>raw p</source>
        <translation>p roh</translation>
    </message>
    <message>
        <source>chosen</source>
        <translation>gewählt</translation>
    </message>
    <message>
        <source>Continue with</source>
        <translation>Fortfahren mit</translation>
    </message>
    <message>
        <source>Prompt token %1 of %2 · id %3%4</source>
        <translation>Prompt-Token %1 von %2 · ID %3%4</translation>
    </message>
    <message>
        <source>special (control) token</source>
        <translation>spezielles (Steuer-)Token</translation>
    </message>
    <message numerus="yes">
        <source>The grammar forbade %n token(s) here, %1 of the probability.</source>
        <translation>
            <numerusform>Die Grammatik hat hier %Ln Token verboten, %1 der Wahrscheinlichkeit.</numerusform>
            <numerusform>Die Grammatik hat hier %Ln Token verboten, %1 der Wahrscheinlichkeit.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>See how a language model picks each token.</source>
        <translation>Zeigt, wie ein Sprachmodell jedes Token auswählt.</translation>
    </message>
    <message>
        <source>GGUF model to open (default: the last one used, else the installed default model).</source>
        <translation>Zu öffnendes GGUF-Modell (Standard: das zuletzt verwendete, sonst das installierte Standardmodell).</translation>
    </message>
    <message>
        <source>User interface language: en, de or zh_CN (default: the last one chosen).</source>
        <translation>Sprache der Benutzeroberfläche: en, de oder zh_CN (Standard: die zuletzt gewählte).</translation>
    </message>
    <message>
        <source>Save screenshots of every page into DIR, then quit.</source>
        <translation>Bildschirmfotos aller Seiten in DIR speichern, dann beenden.</translation>
    </message>
</context>
</TS>
