<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ChatPage</name>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Sent first, as the system message of every answer. Empty: no system message (the chat template may add its own default).</source>
        <translation>作为每次回答的系统消息最先发送。留空：不发送系统消息（对话模板可能会加入它自己的默认内容）。</translation>
    </message>
    <message>
        <source>No system message</source>
        <translation>无系统消息</translation>
    </message>
    <message>
        <source>Type a message; Ctrl+Return sends it</source>
        <translation>输入消息；按 Ctrl+Return 发送</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <source>The longest answer, in tokens</source>
        <translation>回答的最大长度（词元数）</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the message and stream the answer (Ctrl+Return)</source>
        <translation>发送消息并流式显示回答（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the answer here; the text so far stays (Esc)</source>
        <translation>在此停止回答；已生成的文本保留（Esc）</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Drop the last answer and ask for a new one</source>
        <translation>丢弃上一条回答并重新生成</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Forget the whole conversation</source>
        <translation>清除整个对话</translation>
    </message>
</context>
<context>
    <name>PlaygroundPage</name>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Step (F10)</source>
        <translation>单步 (F10)</translation>
    </message>
    <message>
        <source>Generate one token and show what the sampler chain did</source>
        <translation>生成一个词元，并展示采样链做了什么</translation>
    </message>
    <message>
        <source>Forget the generated tokens and start again from the prompt</source>
        <translation>丢弃已生成的词元，从提示词重新开始</translation>
    </message>
    <message>
        <source>Sampler</source>
        <translation>采样器</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>The text the model continues. Editing it starts over.</source>
        <translation>模型要续写的文本。修改后将重新开始。</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>运行 (F5)</translation>
    </message>
    <message>
        <source>Generate tokens one after another until Stop, the end of the text or the run length</source>
        <translation>连续生成词元，直到点击“停止”、文本结束或达到运行长度</translation>
    </message>
    <message>
        <source>Stop (Esc)</source>
        <translation>停止 (Esc)</translation>
    </message>
    <message>
        <source>Stop a run after the current token</source>
        <translation>在当前词元之后停止运行</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Tokens per run</source>
        <translation>每次运行的词元数</translation>
    </message>
    <message>
        <source>How many tokens Run generates at most</source>
        <translation>“运行”最多生成多少个词元</translation>
    </message>
    <message>
        <source>Greedy loop demo</source>
        <translation>贪心循环演示</translation>
    </message>
    <message>
        <source>Greedy decoding (temperature 0, no penalties) on a prompt where it falls into a loop; the repeated span is highlighted</source>
        <translation>在会陷入循环的提示词上进行贪心解码（温度 0，无惩罚）；重复的片段会被高亮</translation>
    </message>
    <message>
        <source>Divides the logits by T before softmax: below 1 the favourite gets likelier (0 = always the most likely token), above 1 the distribution flattens.</source>
        <translation>在 softmax 之前将 logits 除以 T：小于 1 时最可能的词元更加突出（0 = 总是选概率最高的词元），大于 1 时分布变得更平坦。</translation>
    </message>
    <message>
        <source>Keeps only the k most likely tokens (0 = off).</source>
        <translation>只保留概率最高的 k 个词元（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Keeps the smallest set of most likely tokens whose probabilities add up to p (1 = off).</source>
        <translation>保留概率之和达到 p 的最小高概率词元集合（1 = 关闭）。</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drops every token less likely than min-p times the most likely one (0 = off).</source>
        <translation>丢弃概率低于“min-p × 最高概率”的所有词元（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Makes tokens that already appeared less likely: positive logits are divided by it, negative ones multiplied (1 = off).</source>
        <translation>降低已出现过的词元的概率：正的 logit 除以该值，负的乘以该值（1 = 关闭）。</translation>
    </message>
    <message>
        <source>Frequency penalty</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <source>Subtracts this from a token&apos;s logit once for every time it already appeared (0 = off).</source>
        <translation>词元每出现过一次，就从其 logit 中减去一次该值（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Presence penalty</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <source>Subtracts this from the logit of every token that appeared at least once (0 = off).</source>
        <translation>对至少出现过一次的每个词元，从其 logit 中减去该值（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Starts the random draws: the same seed and settings give the same text. Takes effect at Reset.</source>
        <translation>随机抽样的起点：相同的种子和设置会得到相同的文本。在重置时生效。</translation>
    </message>
    <message>
        <source>Defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Put every sampler setting and the stage order back to the defaults</source>
        <translation>将所有采样设置和阶段顺序恢复为默认值</translation>
    </message>
    <message>
        <source>Stage order</source>
        <translation>阶段顺序</translation>
    </message>
    <message>
        <source>The order in which the stages change the distribution. Drag a stage to move it; untick it to switch it off.</source>
        <translation>各阶段依次改变分布的顺序。拖动阶段可调整位置；取消勾选可将其关闭。</translation>
    </message>
    <message>
        <source>Drag to reorder; untick to switch a stage off. The order matters: top-p after a hot temperature keeps more tokens than before it.</source>
        <translation>拖动以调整顺序；取消勾选可关闭阶段。顺序很重要：放在高温度之后的 top-p 比放在它之前保留更多词元。</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>候选词元</translation>
    </message>
    <message>
        <source>What each stage did</source>
        <translation>各阶段的作用</translation>
    </message>
    <message>
        <source>Generated text</source>
        <translation>生成的文本</translation>
    </message>
    <message>
        <source>Each token&apos;s background shows how likely it was. Hover a token to see the alternatives; click it to continue from another one.</source>
        <translation>每个词元的背景色表示它当时的概率。将鼠标悬停在词元上可查看备选项；点击可改用另一个词元继续。</translation>
    </message>
</context>
<context>
    <name>SamplerWaterfall</name>
    <message>
        <source>Raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>The model&apos;s own prediction: the softmax of its logits before any sampler stage.</source>
        <translation>模型自身的预测：在任何采样阶段之前对其 logits 做 softmax。</translation>
    </message>
    <message>
        <source>Logit bias</source>
        <translation>Logit 偏置</translation>
    </message>
    <message>
        <source>Adds a fixed amount to the logits of chosen tokens, making them more or less likely (minus infinity bans a token).</source>
        <translation>给指定词元的 logit 加上一个固定值，使其更可能或更不可能被选中（负无穷表示禁用该词元）。</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Makes tokens that already appeared less likely (positive logits divided by the penalty, negative ones multiplied).</source>
        <translation>降低已出现过的词元的概率（正的 logit 除以惩罚值，负的乘以惩罚值）。</translation>
    </message>
    <message>
        <source>Frequency / presence</source>
        <translation>频率 / 存在</translation>
    </message>
    <message>
        <source>Subtracts the frequency penalty once per earlier occurrence and the presence penalty once if the token appeared at all.</source>
        <translation>词元每出现过一次就减去一次频率惩罚；只要出现过，还会再减去一次存在惩罚。</translation>
    </message>
    <message>
        <source>No-repeat n-gram</source>
        <translation>禁止重复 n-gram</translation>
    </message>
    <message>
        <source>Bans every token that would repeat a run of n tokens that already appears in the text.</source>
        <translation>禁用会让文本中已出现过的 n 个词元序列再次出现的所有词元。</translation>
    </message>
    <message>
        <source>DRY</source>
        <translation>DRY</translation>
    </message>
    <message>
        <source>&quot;Don&apos;t repeat yourself&quot;: penalises a token that would continue a repeat of earlier text, more strongly the longer the repeated run already is.</source>
        <translation>“Don&apos;t repeat yourself”（不要重复自己）：惩罚会延续早前文本重复的词元，已重复的片段越长，惩罚越重。</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Divides every logit by T: below 1 the likely tokens get likelier, above 1 the distribution flattens.</source>
        <translation>将每个 logit 除以 T：小于 1 时高概率词元更加突出，大于 1 时分布变得更平坦。</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Keeps only the k most likely tokens and renormalises them.</source>
        <translation>只保留概率最高的 k 个词元，并重新归一化。</translation>
    </message>
    <message>
        <source>Top-p (nucleus)</source>
        <translation>Top-p（核采样）</translation>
    </message>
    <message>
        <source>Keeps the smallest set of most likely tokens whose probabilities add up to p.</source>
        <translation>保留概率之和达到 p 的最小高概率词元集合。</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drops every token less likely than min-p times the most likely token.</source>
        <translation>丢弃概率低于“min-p × 最高概率”的所有词元。</translation>
    </message>
    <message>
        <source>Typical</source>
        <translation>典型采样</translation>
    </message>
    <message>
        <source>Keeps the tokens whose surprise is closest to the average surprise (the entropy), until their probabilities add up to p.</source>
        <translation>保留“意外程度”最接近平均意外程度（即熵）的词元，直到它们的概率之和达到 p。</translation>
    </message>
    <message>
        <source>XTC</source>
        <translation>XTC</translation>
    </message>
    <message>
        <source>&quot;Exclude top choices&quot;: now and then removes every token above the threshold except the least likely of them, so the text gets less predictable.</source>
        <translation>“Exclude top choices”（排除首选）：不时移除高于阈值的所有词元，只留下其中概率最低的一个，使文本更难预测。</translation>
    </message>
    <message>
        <source>Top-nσ</source>
        <translation>Top-nσ</translation>
    </message>
    <message>
        <source>Keeps only the tokens whose logit lies within n standard deviations of the highest logit.</source>
        <translation>只保留 logit 与最高 logit 相差不超过 n 个标准差的词元。</translation>
    </message>
    <message>
        <source>Mirostat</source>
        <translation>Mirostat</translation>
    </message>
    <message>
        <source>Moves its cut-off after every token so that the average surprise of the chosen tokens stays near a target value τ.</source>
        <translation>每生成一个词元就调整截断点，使所选词元的平均意外程度保持在目标值 τ 附近。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::CandidateTableModel</name>
    <message>
        <source>removed</source>
        <translation>已移除</translation>
    </message>
    <message>
        <source>chosen</source>
        <translation>已选中</translation>
    </message>
    <message>
        <source>The step picked this token.</source>
        <translation>这一步选中了该词元。</translation>
    </message>
    <message>
        <source>A stage of the sampler chain removed this token: it cannot be picked at this step.</source>
        <translation>采样链中的某个阶段移除了该词元：这一步不可能选中它。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Token id</source>
        <translation>词元 ID</translation>
    </message>
    <message>
        <source>Logit</source>
        <translation>Logit</translation>
    </message>
    <message>
        <source>p raw</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <source>p after chain</source>
        <translation>采样链后 p</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Position of the token when all candidates are sorted by their raw logit.</source>
        <translation>所有候选词元按原始 logit 排序后该词元所处的位置。</translation>
    </message>
    <message>
        <source>The text the token adds (␣ is a space, ↵ a new line).</source>
        <translation>该词元添加的文本（␣ 表示空格，↵ 表示换行）。</translation>
    </message>
    <message>
        <source>The token&apos;s number in the model&apos;s vocabulary.</source>
        <translation>该词元在模型词表中的编号。</translation>
    </message>
    <message>
        <source>The model&apos;s raw score for the token, before any sampler stage.</source>
        <translation>模型对该词元的原始打分，未经任何采样阶段。</translation>
    </message>
    <message>
        <source>The probability softmax gives the raw logits, before the sampler chain.</source>
        <translation>对原始 logits 做 softmax 得到的概率（采样链之前）。</translation>
    </message>
    <message>
        <source>The probability after every stage of the sampler chain; the step samples from this.</source>
        <translation>经过采样链所有阶段后的概率；这一步从中抽样。</translation>
    </message>
    <message>
        <source>Whether the token survived the sampler chain or a stage removed it.</source>
        <translation>该词元是通过了采样链，还是被某个阶段移除了。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ChatPage</name>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Reading the prompt…</source>
        <translation>正在读取提示词…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>end of answer</source>
        <translation>回答结束</translation>
    </message>
    <message>
        <source>max tokens reached</source>
        <translation>已达最大词元数</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Answering a prompt of %1 tokens… (Esc stops)</source>
        <translation>正在回答 %1 个词元的提示词…（按 Esc 停止）</translation>
    </message>
    <message>
        <source>Waiting for the model…</source>
        <translation>正在等待模型…</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message numerus="yes">
        <source>Generating… %n token(s)</source>
        <translation>
            <numerusform>正在生成… %n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>TTFT %1 ms · %2 tokens/s · %n token(s) · %3</source>
        <translation>
            <numerusform>首词元 %1 ms · %2 词元/秒 · %n 个词元 · %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::EngineWorker</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Start a session before stepping.</source>
        <translation>请先开始会话，再单步执行。</translation>
    </message>
    <message>
        <source>Start a session before running.</source>
        <translation>请先开始会话，再运行。</translation>
    </message>
    <message>
        <source>Start a session before branching.</source>
        <translation>请先开始会话，再分叉。</translation>
    </message>
    <message>
        <source>An answer needs at least 1 token (max tokens is %1).</source>
        <translation>回答至少需要 1 个词元（最大词元数为 %1）。</translation>
    </message>
    <message>
        <source>The conversation is %1 tokens long but the model&apos;s context holds only %2 positions. Clear the chat or shorten the system prompt, then try again.</source>
        <translation>对话长度为 %1 个词元，但模型的上下文只能容纳 %2 个位置。请清空聊天或缩短系统提示词，然后重试。</translation>
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
        <translation>关于 Decoding Lab</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Decoding Lab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;See how a language model picks each token: the logits, what temperature, top-k, top-p and the penalties do to them, and the text that comes out.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Decoding Lab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;观察语言模型如何挑选每一个词元：logits 本身，温度、top-k、top-p 和各种惩罚对它们的影响，以及最终生成的文本。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Playground</source>
        <translation>演练场(&amp;P)</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>聊天(&amp;C)</translation>
    </message>
    <message>
        <source>Step through generation one token at a time and see what the sampler does</source>
        <translation>逐个词元单步生成，观察采样器做了什么</translation>
    </message>
    <message>
        <source>Talk to the model with its chat template, with the playground&apos;s sampler settings</source>
        <translation>通过模型的对话模板与它聊天，使用演练场中的采样设置</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Backend</source>
        <translation>后端(&amp;B)</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Runs the model on the processor (this build has no GPU backend)</source>
        <translation>在处理器上运行模型（此版本不含 GPU 后端）</translation>
    </message>
    <message>
        <source>CPU &amp;threads</source>
        <translation>CPU 线程(&amp;T)</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>外观(&amp;A)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Decoding Lab</source>
        <translation>关于 Decoding Lab(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop loading the model (Esc)</source>
        <translation>停止加载模型（Esc）</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>A model is still loading; cancel it first.</source>
        <translation>仍有模型正在加载；请先取消。</translation>
    </message>
    <message>
        <source>%1: the file does not exist (it may have been moved or deleted).</source>
        <translation>%1：文件不存在（可能已被移动或删除）。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No model — File → Open model… or drop a .gguf file here</source>
        <translation>无模型 — 文件 → 打开模型…，或把 .gguf 文件拖放到这里</translation>
    </message>
    <message>
        <source>%1 — %2, %3 parameters, %4 layers, vocabulary %5 — %6</source>
        <translation>%1 — %2，%3 参数，%4 层，词表 %5 — %6</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>模型 %1</translation>
    </message>
    <message>
        <source>Decoding Lab — %1</source>
        <translation>Decoding Lab — %1</translation>
    </message>
    <message>
        <source>Loading cancelled; %1 is still in use.</source>
        <translation>已取消加载；仍在使用 %1。</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <source>context %1 / %2</source>
        <translation>上下文 %1 / %2</translation>
    </message>
    <message>
        <source>model %1 · KV cache %2</source>
        <translation>模型 %1 · KV 缓存 %2</translation>
    </message>
    <message>
        <source>prompt %1 tokens/s</source>
        <translation>提示词 %1 词元/秒</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>last step: %1 ms (forward %2 ms, sampling %3 ms)</source>
        <translation>上一步：%1 ms（前向计算 %2 ms，采样 %3 ms）</translation>
    </message>
    <message numerus="yes">
        <source>CPU, %n thread(s)</source>
        <translation>
            <numerusform>CPU，%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>Positions used by the playground&apos;s current branch, of the context the session allows</source>
        <translation>演练场当前分支已占用的位置数 / 本次会话允许的上下文长度</translation>
    </message>
    <message>
        <source>The model file (memory-mapped) and the key/value cache blocks in use</source>
        <translation>模型文件（内存映射）以及正在使用的键值（KV）缓存块</translation>
    </message>
    <message>
        <source>last answer: time to first token %1 ms; %2 of its %3 prompt tokens came from the KV cache</source>
        <translation>上一个回答：首词元 %1 ms；%3 个提示词元中有 %2 个来自 KV 缓存</translation>
    </message>
</context>
<context>
    <name>dlab::ui::PlaygroundPage</name>
    <message>
        <source>Press Step to generate the first token.</source>
        <translation>点击“单步”生成第一个词元。</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 with these settings would choose “%2” (p = %3); %n token(s) kept</source>
        <translation>
            <numerusform>按这些设置，第 %1 步会选择“%2”（p = %3）；保留 %n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 chose “%2” (p = %3); %n token(s) kept after the chain</source>
        <translation>
            <numerusform>第 %1 步选择了“%2”（p = %3）；采样链之后保留 %n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>Loop detected: the last %1 tokens repeat a block of %2 tokens %3 times (highlighted). Greedy decoding keeps choosing the same continuation; sampling or a repetition penalty breaks it.</source>
        <translation>检测到循环：最后 %1 个词元把一段 %2 个词元的内容重复了 %3 次（已高亮）。贪心解码会一直选择相同的续写；采样或重复惩罚可以打破循环。</translation>
    </message>
    <message>
        <source>Branched at step %1: “%2” (p = %3 under these settings). Step or Run continues from it; the prompt and the tokens before it are not computed again.</source>
        <translation>在第 %1 步分叉：“%2”（当前设置下 p = %3）。“单步”或“运行”将从这里继续；提示词和之前的词元不会重新计算。</translation>
    </message>
    <message>
        <source>(end of text)</source>
        <translation>（文本结束）</translation>
    </message>
    <message>
        <source>The context is full: Reset to start again.</source>
        <translation>上下文已满：请重置后重新开始。</translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation>（已停止）</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::DistributionChart</name>
    <message>
        <source>Next-token distribution</source>
        <translation>下一个词元的分布</translation>
    </message>
    <message>
        <source>before the chain</source>
        <translation>采样链之前</translation>
    </message>
    <message>
        <source>after the chain</source>
        <translation>采样链之后</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation>累积概率</translation>
    </message>
    <message>
        <source>top-k = %1</source>
        <translation>top-k = %1</translation>
    </message>
    <message>
        <source>top-p = %1</source>
        <translation>top-p = %1</translation>
    </message>
    <message numerus="yes">
        <source>top-k keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>top-k 保留 %n 个词元（多于图中显示的 %1 个）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>top-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>top-p 保留 %n 个词元（多于图中显示的 %1 个）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::widgets::SamplerWaterfall</name>
    <message>
        <source>kept %1</source>
        <translation>保留 %1</translation>
    </message>
    <message>
        <source>mass %1 %</source>
        <translation>概率质量 %1%</translation>
    </message>
    <message>
        <source>H %1 nats</source>
        <translation>熵 %1 nats</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::TokenStrip</name>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1%</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>chosen by you</source>
        <translation>由你选择</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <source>chosen</source>
        <translation>已选中</translation>
    </message>
    <message>
        <source>Continue with</source>
        <translation>改用以下词元继续</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>See how a language model picks each token.</source>
        <translation>观察语言模型如何挑选每一个词元。</translation>
    </message>
    <message>
        <source>GGUF model to open (default: the last one used, else the installed default model).</source>
        <translation>要打开的 GGUF 模型（默认：上次使用的模型，若没有则为已安装的默认模型）。</translation>
    </message>
    <message>
        <source>User interface language: en, de or zh_CN (default: the last one chosen).</source>
        <translation>界面语言：en、de 或 zh_CN（默认：上次选择的语言）。</translation>
    </message>
    <message>
        <source>Save screenshots of every page into DIR, then quit.</source>
        <translation>将每个页面的截图保存到 DIR，然后退出。</translation>
    </message>
</context>
</TS>
