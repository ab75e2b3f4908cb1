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
    <message>
        <source>The Playground&apos;s sampler settings, which every answer uses. Each answer of a conversation draws from the next seed (seed, seed + 1, …); Clear starts again at the Playground&apos;s seed. Each answer&apos;s caption shows the settings it was generated with.</source>
        <translation>每个回答所用的“演练场”采样设置。对话中的每个回答使用下一个种子（种子、种子 + 1、…）；“清空”后重新从“演练场”的种子开始。每个回答下方的说明列出生成它时的设置。</translation>
    </message>
</context>
<context>
    <name>ConstraintCompiler</name>
    <message>
        <source>GBNF grammar %1</source>
        <translation>GBNF 语法 %1</translation>
    </message>
    <message>
        <source>JSON Schema %1</source>
        <translation>JSON Schema %1</translation>
    </message>
    <message>
        <source>Any JSON value</source>
        <translation>任意 JSON 值</translation>
    </message>
    <message>
        <source>Any JSON object</source>
        <translation>任意 JSON 对象</translation>
    </message>
</context>
<context>
    <name>GpuFallback</name>
    <message>
        <source>this build of the app has no CUDA backend</source>
        <translation>此版本的应用不含 CUDA 后端</translation>
    </message>
    <message>
        <source>no NVIDIA driver is installed</source>
        <translation>未安装 NVIDIA 驱动程序</translation>
    </message>
    <message>
        <source>the NVIDIA driver (CUDA %1) is too old; update it</source>
        <translation>NVIDIA 驱动程序（CUDA %1）太旧，请更新</translation>
    </message>
    <message>
        <source>no NVIDIA GPU was found</source>
        <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>the %1 (compute capability %2) is too old for CUDA 13</source>
        <translation>%1（计算能力 %2）太旧，CUDA 13 不支持</translation>
    </message>
    <message>
        <source>this build has no GPU code for the %1 (compute capability %2)</source>
        <translation>此版本没有适用于 %1（计算能力 %2）的 GPU 代码</translation>
    </message>
    <message>
        <source>too little GPU memory is free (%1 needed)</source>
        <translation>可用的 GPU 显存不足（需要 %1）</translation>
    </message>
    <message>
        <source>too little GPU memory is free (%1 needed, %2 free)</source>
        <translation>可用的 GPU 显存不足（需要 %1，可用 %2）</translation>
    </message>
    <message>
        <source>the GPU (compute capability %1) is too old for CUDA 13</source>
        <translation>GPU（计算能力 %1）太旧，CUDA 13 不支持</translation>
    </message>
    <message>
        <source>this build has no GPU code for compute capability %1</source>
        <translation>此版本没有适用于计算能力 %1 的 GPU 代码</translation>
    </message>
    <message>
        <source>Running on the CPU: %1</source>
        <translation>在 CPU 上运行：%1</translation>
    </message>
</context>
<context>
    <name>ImageExport</name>
    <message>
        <source>cannot write the %1 file &apos;%2&apos;: %3</source>
        <translation>无法写入 %1 文件“%2”：%3</translation>
    </message>
    <message>
        <source>the image is empty or too large</source>
        <translation>图像为空或过大</translation>
    </message>
    <message>
        <source>Exported from Decoding Lab</source>
        <translation>导出自 Decoding Lab</translation>
    </message>
    <message>
        <source>the SVG painter could not start</source>
        <translation>SVG 绘制器无法启动</translation>
    </message>
    <message>
        <source>there is no view to export</source>
        <translation>没有可导出的视图</translation>
    </message>
    <message>
        <source>not enough memory for a %1 × %2 image</source>
        <translation>内存不足，无法创建 %1 × %2 的图像</translation>
    </message>
</context>
<context>
    <name>KvHeatmapData</name>
    <message>
        <source>attention received</source>
        <translation>接收的注意力</translation>
    </message>
    <message>
        <source>bytes held</source>
        <translation>占用字节</translation>
    </message>
    <message>
        <source>sequences sharing the block</source>
        <translation>共享该块的序列数</translation>
    </message>
    <message>
        <source>key norm</source>
        <translation>键向量范数</translation>
    </message>
    <message>
        <source>value norm</source>
        <translation>值向量范数</translation>
    </message>
    <message>
        <source>key quantization error</source>
        <translation>键的量化误差</translation>
    </message>
    <message>
        <source>value quantization error</source>
        <translation>值的量化误差</translation>
    </message>
    <message>
        <source>L%1 kv%2</source>
        <translation>第 %1 层 kv%2</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>第 %1 层</translation>
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
        <source>Moves its cut-off after every token so that the average surprise of the chosen tokens stays near a target value τ.</source>
        <translation>每生成一个词元就调整截断点，使所选词元的平均意外程度保持在目标值 τ 附近。</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Rep. penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Freq./pres.</source>
        <translation>频率/存在</translation>
    </message>
    <message>
        <source>No n-gram</source>
        <translation>禁止 n 元组</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>温度</translation>
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
        <translation>根据最可能的 m 个词元估计概率下降的速度（齐普夫定律），保留能达到目标意外度 τ 的词元数，并在每个词元之后学习。</translation>
    </message>
    <message>
        <source>Grammar (constraint)</source>
        <translation>语法（约束）</translation>
    </message>
    <message>
        <source>Constrained decoding: forbids every token that would make the text so far stop being a valid start of the grammar or JSON Schema, and the end of the text until the grammar is complete. The probability it removes is the price of the constraint.</source>
        <translation>约束解码：禁止任何会使已生成文本不再是该语法或 JSON Schema 有效开头的词元；在语法完整之前，也禁止结束文本。它移除的概率就是约束的代价。</translation>
    </message>
    <message>
        <source>Grammar</source>
        <translation>语法</translation>
    </message>
</context>
<context>
    <name>ServingGantt</name>
    <message>
        <source>request %1: not finished yet</source>
        <translation>请求 %1：尚未完成</translation>
    </message>
    <message>
        <source>request %1: %2</source>
        <translation>请求 %1：%2</translation>
    </message>
    <message>
        <source>request %1: %2 prompt tokens (%3 from the prefix cache), %4 generated
arrived at %5 ms, admitted at %6 ms (waited %7 ms)
first token at %8 ms (TTFT %9 ms), finished at %10 ms</source>
        <translation>请求 %1：%2 个提示词词元（%3 个来自前缀缓存），生成 %4 个
到达于 %5 毫秒，%6 毫秒时获准进入（等待 %7 毫秒）
首个词元于 %8 毫秒（TTFT %9 毫秒），完成于 %10 毫秒</translation>
    </message>
    <message>
        <source>ms since the run started</source>
        <translation>自运行开始的毫秒数</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
</context>
<context>
    <name>ShortcutCollector</name>
    <message>
        <source>Whole window</source>
        <translation>整个窗口</translation>
    </message>
    <message>
        <source>%1 menu</source>
        <translation>%1 菜单</translation>
    </message>
    <message>
        <source>(no description)</source>
        <translation>（无说明）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::AdvancedSamplerBox</name>
    <message>
        <source>Penalty window</source>
        <translation>惩罚窗口</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Keeps the tokens whose surprise is closest to the distribution&apos;s entropy until their probabilities add up to p (1 = off).</source>
        <translation>保留“意外程度”最接近分布熵的词元，直到它们的概率之和达到 p（1 = 关闭）。</translation>
    </message>
    <message>
        <source>n (σ)</source>
        <translation>n (σ)</translation>
    </message>
    <message>
        <source>Keeps the tokens whose logit is within n standard deviations of the best logit.</source>
        <translation>保留 logit 与最高 logit 相差不超过 n 个标准差的词元。</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>How often XTC acts: at each step, with this probability, it removes every token above the threshold except the least likely of them.</source>
        <translation>XTC 生效的频率：每一步以此概率移除所有高于阈值的词元，只保留其中概率最低的一个。</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Tokens at least this likely count as top choices (above 0.5 at most one can, so nothing is removed).</source>
        <translation>概率至少为此值的词元算作首选（高于 0.5 时最多只有一个，因此不会移除任何词元）。</translation>
    </message>
    <message>
        <source>Multiplier</source>
        <translation>乘数</translation>
    </message>
    <message>
        <source>Strength of the DRY penalty on a token that would extend a repeated sequence.</source>
        <translation>对会延长重复序列的词元施加的 DRY 惩罚强度。</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>底数</translation>
    </message>
    <message>
        <source>The penalty grows as base^(length − allowed length) with the repeat&apos;s length.</source>
        <translation>惩罚随重复长度按 底数^(长度 − 允许长度) 增长。</translation>
    </message>
    <message>
        <source>Allowed length</source>
        <translation>允许长度</translation>
    </message>
    <message>
        <source>Repeats up to this many tokens are not penalised.</source>
        <translation>不超过此长度的重复不受惩罚。</translation>
    </message>
    <message>
        <source>Look back</source>
        <translation>回看范围</translation>
    </message>
    <message>
        <source>How many recent tokens DRY searches for repeats (−1 = the whole text).</source>
        <translation>DRY 在最近多少个词元中查找重复（−1 = 整段文本）。</translation>
    </message>
    <message>
        <source>Target surprise τ (bits)</source>
        <translation>目标意外度 τ（比特）</translation>
    </message>
    <message>
        <source>The surprise per token Mirostat steers towards: lower is more focused, higher more varied.</source>
        <translation>Mirostat 追求的每词元意外度：越低越集中，越高越多样。</translation>
    </message>
    <message>
        <source>Learning rate η</source>
        <translation>学习率 η</translation>
    </message>
    <message>
        <source>How fast Mirostat corrects its cut-off after each token.</source>
        <translation>Mirostat 在每个词元之后修正截断点的速度。</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Bans any token that would repeat an n-gram already in the text.</source>
        <translation>禁止任何会重复文本中已有 n 元组的词元。</translation>
    </message>
    <message>
        <source>Last n tokens</source>
        <translation>最近 n 个词元</translation>
    </message>
    <message>
        <source>How many recent tokens the repetition, frequency and presence penalties look at (−1 = the whole text, 0 = penalties off).</source>
        <translation>重复、频率和存在惩罚考察的最近词元数（−1 = 整段文本，0 = 关闭惩罚）。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>e.g. 198:-2, 13:ban</source>
        <translation>例如 198:-2, 13:ban</translation>
    </message>
    <message>
        <source>TOKEN_ID:BIAS, separated by commas.</source>
        <translation>TOKEN_ID:BIAS，用逗号分隔。</translation>
    </message>
    <message>
        <source>Token ids (the Candidates table shows them) with a number added to their logit; “ban” removes the token. Right-click a candidate to ban it.</source>
        <translation>词元 ID（“候选”表中可见）及加到其 logit 上的数值；“ban”表示移除该词元。右键单击候选词元即可禁止它。</translation>
    </message>
    <message>
        <source>Tokens for the fit m</source>
        <translation>用于估计的词元数 m</translation>
    </message>
    <message>
        <source>How many of the most likely tokens Mirostat 1 uses to estimate how fast the probabilities fall off.</source>
        <translation>Mirostat 1 用多少个最可能的词元来估计概率下降的速度。</translation>
    </message>
    <message>
        <source>Mirostat replaces top-k and top-p: use it with its order preset (Mirostat 1 or 2, as llama.cpp&apos;s mirostat and mirostat-v2).</source>
        <translation>Mirostat 取代 top-k 和 top-p：请配合其顺序预设使用（Mirostat 1 或 2，对应 llama.cpp 的 mirostat 和 mirostat-v2）。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::BeamTreePanel</name>
    <message>
        <source>“%1” was cut at its step (rank %2, p %3): it was never expanded.</source>
        <translation>“%1”在其所在步被剪枝（排名 %2，p %3）：它从未被扩展。</translation>
    </message>
    <message>
        <source>“%1” was not expanded (the search ended there).</source>
        <translation>“%1”没有被扩展（搜索在此结束）。</translation>
    </message>
    <message>
        <source>the prompt</source>
        <translation>提示词</translation>
    </message>
    <message numerus="yes">
        <source>Diverse beams (%n group(s))</source>
        <translation>
            <numerusform>多样化束（%Ln 组）</numerusform>
        </translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>final beams: overlap %1 · shared start %2 tokens · distinct-2 %3 · %4 ms</source>
        <translation>最终束：重叠率 %1 · 共同开头 %2 个词元 · distinct-2 %3 · %4 ms</translation>
    </message>
    <message>
        <source>Beam search tree</source>
        <translation>束搜索树</translation>
    </message>
    <message>
        <source>&lt;b&gt;Beam search on the prompt above&lt;/b&gt;</source>
        <translation>&lt;b&gt;对上方提示词进行束搜索&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Width k</source>
        <translation>束宽 k(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Length penalty α</source>
        <translation>长度惩罚 α(&amp;L)</translation>
    </message>
    <message>
        <source>score = log-prob / length^α: above 0 favours longer hypotheses, below 0 shorter ones</source>
        <translation>得分 = 对数概率 / 长度^α：大于 0 偏向较长的假设，小于 0 偏向较短的假设</translation>
    </message>
    <message>
        <source>never (exact)</source>
        <translation>从不（精确）</translation>
    </message>
    <message>
        <source>&amp;Groups</source>
        <translation>组数(&amp;G)</translation>
    </message>
    <message>
        <source>Diverse beams</source>
        <translation>多样化束</translation>
    </message>
    <message>
        <source>◀</source>
        <translation>◀</translation>
    </message>
    <message>
        <source>One expansion back (←)</source>
        <translation>后退一次扩展 (←)</translation>
    </message>
    <message>
        <source>▶</source>
        <translation>▶</translation>
    </message>
    <message>
        <source>One expansion forward (→)</source>
        <translation>前进一次扩展 (→)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Play the search one expansion at a time (Space)</source>
        <translation>逐次扩展地播放搜索过程 (Space)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>The whole tree in view (0)</source>
        <translation>显示整棵树 (0)</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+wheel)</source>
        <translation>放大 (Ctrl+滚轮)</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+wheel)</source>
        <translation>缩小 (Ctrl+滚轮)</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>第 %1 / %2 步</translation>
    </message>
    <message>
        <source>heuristic</source>
        <translation>启发式</translation>
    </message>
    <message>
        <source>&amp;Diverse beams too</source>
        <translation>同时显示多样化束(&amp;D)</translation>
    </message>
    <message>
        <source>Diverse (group) beam search, Vijayakumar et al. 2016, beside plain beams: the width split into groups; a group loses the diversity penalty for each earlier group that chose the same token at this step</source>
        <translation>多样化（分组）束搜索（Vijayakumar 等，2016），与普通束搜索并列：束宽被分成若干组；在这一步，每有一个更早的组选择了同一个词元，该组就被扣除一次多样性惩罚</translation>
    </message>
    <message>
        <source>Searching… %1 %</source>
        <translation>搜索中… %1%</translation>
    </message>
    <message>
        <source>After “%1” (path log-prob %2, score %3): the model&apos;s next-token distribution, entropy %4 bits</source>
        <translation>在“%1”之后（路径对数概率 %2，得分 %3）：模型给出的下一个词元分布，熵 %4 比特</translation>
    </message>
    <message>
        <source>when k have finished</source>
        <translation>k 个完成时</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s early_stopping: heuristic (False, the default) stops when no running beam can beat the finished ones at its length; &quot;when k have finished&quot; (True) as soon as k hypotheses ended; never: only when none could at any length</source>
        <translation>Hugging Face 的 early_stopping：启发式（False，默认）在没有任何运行中的束能在其长度上胜过已完成的束时停止；“k 个完成时”（True）在 k 个假设结束后立即停止；从不：只有在任何长度上都无法胜过时才停止</translation>
    </message>
    <message>
        <source>Click a node in the tree to see the distribution it was expanded from.</source>
        <translation>点击树中的节点，查看它展开时所依据的分布。</translation>
    </message>
    <message>
        <source>The tree appears here: Search runs a beam search on the prompt above.</source>
        <translation>搜索树将显示在这里：“搜索”会对上方提示词进行束搜索。</translation>
    </message>
    <message>
        <source>Earl&amp;y stopping</source>
        <translation>提前停止(&amp;Y)</translation>
    </message>
    <message>
        <source>Max toke&amp;ns</source>
        <translation>最大词元数(&amp;N)</translation>
    </message>
    <message>
        <source>D&amp;iversity penalty</source>
        <translation>多样性惩罚(&amp;I)</translation>
    </message>
    <message>
        <source>Sear&amp;ch</source>
        <translation>搜索(&amp;C)</translation>
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
    <message>
        <source>forbidden</source>
        <translation>被禁止</translation>
    </message>
    <message>
        <source>The constraint&apos;s grammar forbade this token: the text would no longer fit it.</source>
        <translation>约束的语法禁止了这个词元：否则文本将不再符合它。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ChatController</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
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
            <numerusform>正在生成… %Ln 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>TTFT %1 ms · %2 tokens/s · %n token(s) · %3</source>
        <translation>
            <numerusform>首词元 %1 ms · %2 词元/秒 · %Ln 个词元 · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Sampled with %1</source>
        <translation>采样设置：%1</translation>
    </message>
    <message>
        <source>greedy (temperature 0)</source>
        <translation>贪心（温度 0）</translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation>温度 %1</translation>
    </message>
    <message>
        <source>top-k %1</source>
        <translation>top-k %1</translation>
    </message>
    <message>
        <source>top-p %1</source>
        <translation>top-p %1</translation>
    </message>
    <message>
        <source>min-p %1</source>
        <translation>min-p %1</translation>
    </message>
    <message>
        <source>typical-p %1</source>
        <translation>typical-p %1</translation>
    </message>
    <message>
        <source>top-n-σ %1</source>
        <translation>top-n-σ %1</translation>
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
        <translation>重复惩罚 %1</translation>
    </message>
    <message>
        <source>frequency penalty %1</source>
        <translation>频率惩罚 %1</translation>
    </message>
    <message>
        <source>presence penalty %1</source>
        <translation>存在惩罚 %1</translation>
    </message>
    <message>
        <source>DRY %1</source>
        <translation>DRY %1</translation>
    </message>
    <message>
        <source>no repeated %1-grams</source>
        <translation>禁止重复 %1 元组</translation>
    </message>
    <message numerus="yes">
        <source>%n logit bias(es)</source>
        <translation>
            <numerusform>%Ln 个 logit 偏置</numerusform>
        </translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>Sampling: %1 — set on the Playground</source>
        <translation>采样：%1 — 在“演练场”页设置</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>聊天(&amp;H)</translation>
    </message>
    <message>
        <source>Talk to the model with its chat template, with the playground&apos;s sampler settings</source>
        <translation>通过模型的对话模板与它聊天，使用演练场中的采样设置</translation>
    </message>
    <message>
        <source>Positions the conversation uses, of the context the chat allows</source>
        <translation>对话已使用的位置数 / 聊天允许的上下文长度</translation>
    </message>
    <message>
        <source>JSON mode</source>
        <translation>JSON 模式</translation>
    </message>
    <message>
        <source>Constrain every reply to one JSON object: at each step the sampler forbids every token that would break it (the prompt is not constrained). Applies from the next reply.</source>
        <translation>把每条回复限制为一个 JSON 对象：每一步采样器都会禁止会破坏它的词元（提示词不受约束）。从下一条回复起生效。</translation>
    </message>
    <message>
        <source>JSON mode: one valid JSON object</source>
        <translation>JSON 模式：一个有效的 JSON 对象</translation>
    </message>
    <message>
        <source>JSON mode: not a JSON object</source>
        <translation>JSON 模式：不是 JSON 对象</translation>
    </message>
    <message>
        <source>JSON mode: the object is not finished</source>
        <translation>JSON 模式：对象尚未完成</translation>
    </message>
    <message>
        <source>JSON mode: each reply is one JSON object</source>
        <translation>JSON 模式：每条回复都是一个 JSON 对象</translation>
    </message>
    <message>
        <source>seed %1 (the Playground&apos;s seed %2 + %3, one per answer so far)</source>
        <translation>种子 %1（演练场的种子 %2 + %3，此前每个回答加一）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ColumnEditor</name>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>Diverse beam search</source>
        <translation>多样化束搜索</translation>
    </message>
    <message>
        <source>heuristic (HF default)</source>
        <translation>启发式（HF 默认）</translation>
    </message>
    <message>
        <source>as soon as k are finished</source>
        <translation>一旦 k 个完成</translation>
    </message>
    <message>
        <source>never (exact)</source>
        <translation>从不（精确）</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k (0 = off)</source>
        <translation>Top-k（0 = 关闭）</translation>
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
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Beam width k</source>
        <translation>束宽 k</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>组数</translation>
    </message>
    <message>
        <source>Diversity penalty</source>
        <translation>多样性惩罚</translation>
    </message>
    <message>
        <source>Length penalty α</source>
        <translation>长度惩罚 α</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>Repetition penalty (1 = off)</source>
        <translation>重复惩罚（1 = 关闭）</translation>
    </message>
    <message>
        <source>No-repeat n-gram (0 = off)</source>
        <translation>禁止重复 n-gram（0 = 关闭）</translation>
    </message>
    <message>
        <source>Run spec</source>
        <translation>运行规格</translation>
    </message>
    <message>
        <source>The run spec, as decoding-lab-cli compare --run reads it; every key works here, e.g. sample:t=0.8,dry=0.8,order=llama.cpp (DRY is a stage of the llama.cpp order) or beam:k=8,lp=0.6,es=never</source>
        <translation>运行规格，格式与 decoding-lab-cli compare --run 读取的相同；这里所有键都可用，例如 sample:t=0.8,dry=0.8,order=llama.cpp（DRY 是 llama.cpp 顺序中的一个阶段）或 beam:k=8,lp=0.6,es=never</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ComparisonTableModel</name>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Deterministic?</source>
        <translation>确定性？</translation>
    </message>
    <message>
        <source>Diverse?</source>
        <translation>多样？</translation>
    </message>
    <message>
        <source>Finds the likeliest text?</source>
        <translation>能找到最可能的文本？</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Typical use</source>
        <translation>典型用途</translation>
    </message>
    <message>
        <source>Tasks with one right answer: translation, summaries</source>
        <translation>只有一个正确答案的任务：翻译、摘要</translation>
    </message>
    <message>
        <source>Tasks with one right answer (wider beams find likelier text)</source>
        <translation>只有一个正确答案的任务（更宽的束能找到更可能的文本）</translation>
    </message>
    <message>
        <source>Short factual answers: on long text it loops (it did here)</source>
        <translation>简短的事实性回答：长文本时会陷入循环（这里就是）</translation>
    </message>
    <message>
        <source>Short factual answers, tests that need the same output every time</source>
        <translation>简短的事实性回答、每次都需要相同输出的测试</translation>
    </message>
    <message>
        <source>Open-ended text: chat, stories, brainstorming</source>
        <translation>开放式文本：聊天、故事、头脑风暴</translation>
    </message>
    <message>
        <source>Chat with little variation (the runs overlap a lot)</source>
        <translation>变化很少的聊天（各次运行重叠很多）</translation>
    </message>
    <message numerus="yes">
        <source>yes: %n runs identical</source>
        <translation>
            <numerusform>是：%Ln 次运行完全相同</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>no: the %n runs differ</source>
        <translation>
            <numerusform>否：%Ln 次运行各不相同</numerusform>
        </translation>
    </message>
    <message>
        <source>yes: as likely as a width-%1 beam&apos;s best</source>
        <translation>是：与束宽 %1 的最优结果一样可能</translation>
    </message>
    <message>
        <source>yes: %1 nats likelier than a width-%2 beam&apos;s best</source>
        <translation>是：比束宽 %2 的最优结果高 %1 奈特</translation>
    </message>
    <message>
        <source>no: %1 nats below a width-%2 beam&apos;s best</source>
        <translation>否：比束宽 %2 的最优结果低 %1 奈特</translation>
    </message>
    <message numerus="yes">
        <source>Its %n token(s) have log-prob %1; the best %n-token continuation a width-%2 beam found has %3 (end tokens counted as ordinary tokens there)</source>
        <translation>
            <numerusform>该列的 %Ln 个词元的对数概率为 %1；束宽 %2 的束找到的最优 %Ln 词元续写为 %3（其中结束词元按普通词元计）</numerusform>
        </translation>
    </message>
    <message>
        <source>Chosen from this row&apos;s numbers: deterministic or not, overlap, log-prob gap, loops</source>
        <translation>根据本行的数据选出：是否确定、重叠率、对数概率差距、循环</translation>
    </message>
    <message>
        <source>Several different good candidates to choose from: captions, rewrites, reranking</source>
        <translation>有多个不同的好候选可供选择：图片说明、改写、重排序</translation>
    </message>
    <message>
        <source>Several candidates, though these overlap a lot (raise the diversity penalty)</source>
        <translation>有多个候选，但彼此重叠很多（可提高多样性惩罚）</translation>
    </message>
    <message>
        <source>yes: runs overlap %1</source>
        <translation>是：运行间重叠率 %1</translation>
    </message>
    <message>
        <source>no: runs overlap %1</source>
        <translation>否：运行间重叠率 %1</translation>
    </message>
    <message>
        <source>final beams: yes, overlap %1</source>
        <translation>最终束：是，重叠率 %1</translation>
    </message>
    <message>
        <source>final beams: no, overlap %1</source>
        <translation>最终束：否，重叠率 %1</translation>
    </message>
    <message numerus="yes">
        <source>Re-run with %n seed(s): mean bigram overlap %1 (shared word pairs between two runs: 0 = none, 1 = the same), mean shared start %2 tokens, distinct-2 of all runs together %3 (different word pairs / all word pairs)</source>
        <translation>
            <numerusform>用 %Ln 个随机种子重新运行：平均二元组重叠率 %1（两次运行之间共有的词对：0 = 没有，1 = 完全相同），平均共同开头 %2 个词元，所有运行合计的 distinct-2 为 %3（不同词对数 / 全部词对数）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms per step</source>
        <translation>每步 %1 ms</translation>
    </message>
    <message>
        <source>%1× greedy&apos;s time per step
%2× its tokens evaluated per step</source>
        <translation>每步耗时为贪心的 %1×
每步计算的词元数为其 %2×</translation>
    </message>
    <message>
        <source>A step chooses the next token of every sequence a strategy keeps. Beam search keeps k beams, so its steps evaluate k tokens, all in one batched forward pass that reads the weights once: a step costs more than greedy&apos;s, but less than k of them. It ends early when its beams finish.</source>
        <translation>每一步为策略保留的每条序列选出下一个词元。束搜索保留 k 条束，因此每一步要计算 k 个词元，它们全部在一次批量前向计算中完成，权重只读取一次：一步的耗时高于贪心的一步，但低于贪心的 k 步。当所有束都完成时会提前结束。</translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step (%2 tokens/s), %3 tokens evaluated per step in %n forward pass(es).</source>
        <translation>
            <numerusform>每步 %1 ms（%2 词元/秒），每步计算 %3 个词元，共 %Ln 次前向计算。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 ms per step against greedy&apos;s %2 ms (%3 tokens/s); %4 tokens evaluated per step against greedy&apos;s %5, in %n forward pass(es).</source>
        <translation>
            <numerusform>每步 %1 ms，贪心为 %2 ms（%3 词元/秒）；每步计算 %4 个词元，贪心为 %5 个，共 %Ln 次前向计算。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::ConstraintBox</name>
    <message>
        <source>Open a grammar or a JSON Schema</source>
        <translation>打开语法或 JSON Schema</translation>
    </message>
    <message>
        <source>GBNF grammars and JSON Schemas (*.gbnf *.json);;All files (*)</source>
        <translation>GBNF 语法和 JSON Schema (*.gbnf *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not read %1.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>Off: the model may write anything. A constraint forbids, at every step, each token that would break a grammar or a JSON Schema.</source>
        <translation>关闭：模型可以写任何内容。约束会在每一步禁止任何会违反语法或 JSON Schema 的词元。</translation>
    </message>
    <message>
        <source>Compiling…</source>
        <translation>正在编译…</translation>
    </message>
    <message numerus="yes">
        <source>%1 in force: %n rule(s), compiled for this model&apos;s vocabulary in %2 ms.</source>
        <translation>
            <numerusform>%1 已生效：%Ln 条规则，针对此模型的词表编译用时 %2 毫秒。</numerusform>
        </translation>
    </message>
    <message>
        <source>Takes effect once a model is loaded.</source>
        <translation>加载模型后生效。</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>约束</translation>
    </message>
    <message>
        <source>Constrained decoding: the sampler chain&apos;s first stage forbids every token that would not fit the grammar, so the output always parses</source>
        <translation>约束解码：采样链的第一个阶段禁止任何不符合语法的词元，因此输出总能被解析</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Any JSON value</source>
        <translation>任意 JSON 值</translation>
    </message>
    <message>
        <source>JSON Schema</source>
        <translation>JSON Schema</translation>
    </message>
    <message>
        <source>GBNF grammar</source>
        <translation>GBNF 语法</translation>
    </message>
    <message>
        <source>What the output must be: anything, any JSON value, JSON that matches a schema, or text that a GBNF grammar (llama.cpp&apos;s format) accepts</source>
        <translation>输出必须是什么：任意内容、任意 JSON 值、符合某个 Schema 的 JSON，或 GBNF 语法（llama.cpp 的格式）接受的文本</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Examples that come with the app, and the files you opened</source>
        <translation>应用自带的示例，以及你打开过的文件</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Open a .gbnf grammar or a .json JSON Schema</source>
        <translation>打开 .gbnf 语法或 .json JSON Schema</translation>
    </message>
    <message>
        <source>Edit the grammar or schema, then Apply (Ctrl+Return)</source>
        <translation>编辑语法或 Schema，然后点应用（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Compile the edited text and use it from the current step on (Ctrl+Return)</source>
        <translation>编译编辑后的文本，并从当前步骤起使用（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Grammar</source>
        <translation>语法</translation>
    </message>
    <message>
        <source>The GBNF grammar the engine made of the schema: what the mask is computed from</source>
        <translation>引擎由该 Schema 生成的 GBNF 语法：掩码就是据此计算的</translation>
    </message>
    <message>
        <source>Compare with unconstrained</source>
        <translation>与无约束对比</translation>
    </message>
    <message>
        <source>Generate the same prompt with the same settings and seed but no constraint, step by step beside the constrained text</source>
        <translation>用相同的提示词、设置和种子但不加约束进行生成，并逐步显示在受约束文本旁边</translation>
    </message>
    <message>
        <source>Not in force: %1</source>
        <translation>未生效：%1</translation>
    </message>
    <message>
        <source>The playground runs without a constraint.</source>
        <translation>演练场在无约束的情况下运行。</translation>
    </message>
    <message>
        <source>Constraint: apply the edited grammar or schema</source>
        <translation>约束：应用编辑后的语法或 Schema</translation>
    </message>
    <message>
        <source> (edited)</source>
        <translation>（已编辑）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvBlocksPanel</name>
    <message>
        <source>Run a prompt (with several continuations to see blocks shared) to fill the pool.</source>
        <translation>运行一个提示词（多个续写可看到共享的块）来填充块池。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Contiguous (reserve the whole context)&lt;/b&gt;&lt;br&gt;%1 positions reserved per sequence: %2 for %n sequence(s), of which %3 (%4 %) hold nothing. That is %5× the paged pool&apos;s bytes; paging wastes at most one partly filled block per sequence.</source>
        <translation>
            <numerusform>&lt;b&gt;连续分配（预留整个上下文）&lt;/b&gt;&lt;br&gt;每个序列预留 %1 个位置：%Ln 个序列共 %2，其中 %3（%4%）没有存放任何内容。这是分页块池字节数的 %5 倍；分页每个序列最多浪费一个部分填充的块。</numerusform>
        </translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>continuation %1</source>
        <translation>续写 %1</translation>
    </message>
    <message>
        <source>this page&apos;s run</source>
        <translation>本页的运行</translation>
    </message>
    <message>
        <source>the Playground&apos;s session (its branches)</source>
        <translation>演练场的会话（其分支）</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>The Playground has no session: Step or Run there, branch from a token, then Refresh here.</source>
        <translation>演练场没有会话：请先在那里单步或运行，从某个词元分支，然后在这里刷新。</translation>
    </message>
    <message>
        <source>Reading the Playground&apos;s pool…</source>
        <translation>正在读取演练场的块池…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Paged (the pool as it stands)&lt;/b&gt;&lt;br&gt;%n sequence(s), %1 positions in %2 blocks of %3: %4 in use. Unused slots in partly filled blocks: %5 (%6 %). Sharing saved %7: without copy-on-write every sequence would hold its own copy of the shared blocks.</source>
        <translation>
            <numerusform>&lt;b&gt;分页（块池当前状态）&lt;/b&gt;&lt;br&gt;%Ln 个序列，%1 个位置，占 %2 个块（每块 %3 个位置）：使用 %4。部分填充的块中未用的槽位：%5（%6%）。共享节省了 %7：没有写时复制，每个序列都要保存共享块的一份副本。</numerusform>
        </translation>
    </message>
    <message>
        <source>Seque&amp;nces of:</source>
        <translation>序列来源(&amp;N)：</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvCalculatorPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;%1 per position&lt;/b&gt; (2 × %2 layers × %3 KV heads × %4 × %5 bytes), &lt;b&gt;%6 per sequence&lt;/b&gt; of %7 positions, &lt;b&gt;%8 for %n sequence(s)&lt;/b&gt;. Weights: %9%10.</source>
        <translation>
            <numerusform>&lt;b&gt;每个位置 %1&lt;/b&gt;（2 × %2 层 × %3 个 KV 头 × %4 × %5 字节），&lt;b&gt;每个序列 %6&lt;/b&gt;（%7 个位置），&lt;b&gt;%Ln 个序列共 %8&lt;/b&gt;。权重：%9%10。</numerusform>
        </translation>
    </message>
    <message>
        <source> (the file&apos;s tensors)</source>
        <translation>（文件中的张量）</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>C&amp;ontext:</source>
        <translation>上下文(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Attention:</source>
        <translation>注意力(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Weights:</source>
        <translation>权重(&amp;W)：</translation>
    </message>
    <message>
        <source>as trained</source>
        <translation>按训练时</translation>
    </message>
    <message>
        <source>MHA (a K/V head per query head)</source>
        <translation>MHA（每个查询头一个 K/V 头）</translation>
    </message>
    <message>
        <source>MQA (one K/V head)</source>
        <translation>MQA（一个 K/V 头）</translation>
    </message>
    <message>
        <source>The loaded model (%1 layers, %2 KV heads)</source>
        <translation>已加载的模型（%1 层，%2 个 KV 头）</translation>
    </message>
    <message>
        <source>Seque&amp;nces:</source>
        <translation>序列数(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;KV dtype:</source>
        <translation>KV 数据类型(&amp;K)：</translation>
    </message>
    <message>
        <source>%1 fit (KV only: %2) · %3 % used</source>
        <translation>可容纳 %1 个（仅 KV：%2）· 已用 %3%</translation>
    </message>
    <message>
        <source>RAM %1</source>
        <translation>内存 %1</translation>
    </message>
    <message>
        <source>GPU %1 GiB</source>
        <translation>GPU %1 GiB</translation>
    </message>
    <message>
        <source>A formula, not a measurement: KV bytes = 2 (K and V) × layers × KV heads × head dim × positions × bytes per value × sequences. The bars put it beside the weights in this computer&apos;s memory (RAM, where the CPU engine runs) and on GPUs of 24, 40, 80 and 141 GiB; &quot;fit&quot; counts the sequences of this context that fit after the weights.</source>
        <translation>这是公式，不是测量：KV 字节 = 2（K 和 V）× 层数 × KV 头数 × 头维度 × 位置数 × 每个值的字节数 × 序列数。条形图把它与权重一起放在本机内存（RAM，CPU 引擎运行之处）以及 24、40、80 和 141 GiB 的 GPU 上；“可容纳”统计放下权重后还能容纳多少个该上下文长度的序列。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvCompressionPanel</name>
    <message>
        <source>Cannot read the text file &apos;%1&apos;: %2</source>
        <translation>无法读取文本文件“%1”：%2</translation>
    </message>
    <message>
        <source>The text file &apos;%1&apos; is not UTF-8 text.</source>
        <translation>文本文件“%1”不是 UTF-8 文本。</translation>
    </message>
    <message>
        <source>Open a long text</source>
        <translation>打开一篇长文本</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Measuring: run %1 of %2…</source>
        <translation>测量中：第 %1 次运行，共 %2 次…</translation>
    </message>
    <message>
        <source>Reading the text: %1 of %2 tokens, every policy in turn…</source>
        <translation>正在读取文本：%1 / %2 个词元，依次运行每种策略…</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV 缓存数据类型</translation>
    </message>
    <message>
        <source>f32 weights and activations (about 4 bytes per parameter more memory, several times slower): the KL then comes from the cache alone</source>
        <translation>f32 权重和激活（每个参数约多占 4 字节内存，慢好几倍）：此时 KL 只来自缓存本身</translation>
    </message>
    <message>
        <source>&amp;Compare dtypes</source>
        <translation>比较数据类型(&amp;C)</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>bytes / position</source>
        <translation>字节 / 位置</translation>
    </message>
    <message>
        <source>max KL</source>
        <translation>最大 KL</translation>
    </message>
    <message>
        <source>top-1 agrees</source>
        <translation>Top-1 一致</translation>
    </message>
    <message>
        <source>ms / step</source>
        <translation>毫秒 / 步</translation>
    </message>
    <message>
        <source>KL divergence from the f32 cache per step</source>
        <translation>每步相对 f32 缓存的 KL 散度</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>奈特</translation>
    </message>
    <message>
        <source>Exact arithmetic: the differences come from how the cache stores K and V alone.</source>
        <translation>精确运算：差异只来自缓存存储 K 和 V 的方式。</translation>
    </message>
    <message>
        <source>The fast path (quantized activations, as llama.cpp) amplifies the cache&apos;s rounding; tick Exact arithmetic to measure the cache&apos;s own share.</source>
        <translation>快速路径（与 llama.cpp 一样量化激活）会放大缓存的舍入误差；勾选“精确运算”可测量缓存本身的影响。</translation>
    </message>
    <message>
        <source>The f32 run picks a greedy text; f16 and q8_0 caches read the same tokens, so each step compares two distributions over the same context.</source>
        <translation>f32 运行用贪心解码选出文本；f16 和 q8_0 缓存读取相同的词元，因此每一步比较的是同一上下文下的两个分布。</translation>
    </message>
    <message>
        <source>Long context: eviction</source>
        <translation>长上下文：驱逐</translation>
    </message>
    <message>
        <source>Built in: the GNU GPL v3 (a long English text)</source>
        <translation>内置：GNU GPL v3（一篇英文长文本）</translation>
    </message>
    <message>
        <source>Open a text file…</source>
        <translation>打开文本文件…</translation>
    </message>
    <message>
        <source>T&amp;okens:</source>
        <translation>词元数(&amp;O)：</translation>
    </message>
    <message>
        <source>C&amp;ache:</source>
        <translation>缓存(&amp;A)：</translation>
    </message>
    <message>
        <source>S&amp;inks:</source>
        <translation>汇聚位(&amp;I)：</translation>
    </message>
    <message>
        <source>policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>positions kept</source>
        <translation>保留的位置</translation>
    </message>
    <message>
        <source>KV bytes</source>
        <translation>KV 字节</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <source>Loss per token (mean of the last 32)</source>
        <translation>每个词元的损失（最近 32 个的均值）</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Perplexity over tokens %1–%2, after the bounded caches first fill.%3 Keeping the first tokens (attention sinks) matters: most attention goes to them whatever they say.</source>
        <translation>在有限缓存第一次填满之后，对词元 %1–%2 计算的困惑度。%3保留最前面的词元（注意力汇聚点）很重要：无论它们的内容是什么，大部分注意力都落在它们身上。</translation>
    </message>
    <message>
        <source>(Stopped early: partial results.)</source>
        <translation>（提前停止：部分结果。）</translation>
    </message>
    <message>
        <source>Reads the text one token at a time through three caches: the full one, the first tokens plus a recent window (StreamingLLM), and the window alone. Kept keys keep their positions.</source>
        <translation>逐个词元地用三种缓存读取文本：完整缓存、最前面的词元加最近的窗口（StreamingLLM），以及仅窗口。保留的键保持原来的位置。</translation>
    </message>
    <message>
        <source>mean KL</source>
        <translation>平均 KL</translation>
    </message>
    <message>
        <source>full cache</source>
        <translation>完整缓存</translation>
    </message>
    <message>
        <source>%1 sinks + %2 recent</source>
        <translation>%1 个汇聚位 + 最近 %2 个</translation>
    </message>
    <message>
        <source>%1 recent, no sinks</source>
        <translation>最近 %1 个，无汇聚位</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>Exact arith&amp;metic</source>
        <translation>精确运算(&amp;M)</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>Ru&amp;n eviction</source>
        <translation>运行驱逐(&amp;N)</translation>
    </message>
    <message>
        <source>Compare dtypes to draw how far each cache type moves the next-token distribution.</source>
        <translation>点击“比较数据类型”，查看每种缓存类型使下一词元分布偏移多少。</translation>
    </message>
    <message>
        <source>Run eviction to draw each cache policy&apos;s loss per token.</source>
        <translation>点击“运行驱逐”，绘制每种缓存策略的逐词元损失。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvController</name>
    <message>
        <source>The prompt is empty: write a few words for the model to continue.</source>
        <translation>提示词为空：请写几个词让模型续写。</translation>
    </message>
    <message>
        <source>The prompt (%1 tokens) and %2 steps need %3 positions, but the model&apos;s context holds %4: lower the steps or shorten the prompt.</source>
        <translation>提示词（%1 个词元）加 %2 步需要 %3 个位置，但模型的上下文只有 %4 个：请减少步数或缩短提示词。</translation>
    </message>
    <message>
        <source>The text has %1 tokens; the experiment was asked to read %2. Choose a longer text or fewer tokens.</source>
        <translation>该文本有 %1 个词元；实验要求读取 %2 个。请选择更长的文本或更少的词元。</translation>
    </message>
    <message>
        <source>The sinks (%1) must be fewer than the cache&apos;s %2 positions.</source>
        <translation>汇聚位（%1）必须少于缓存的 %2 个位置。</translation>
    </message>
    <message>
        <source>full cache</source>
        <translation>完整缓存</translation>
    </message>
    <message>
        <source>sinks %1 + window %2</source>
        <translation>汇聚位 %1 + 窗口 %2</translation>
    </message>
    <message>
        <source>window %1 (no sinks)</source>
        <translation>窗口 %1（无汇聚位）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvGrowthPanel</name>
    <message>
        <source>KV bytes in use (KiB)</source>
        <translation>已用 KV 字节（KiB）</translation>
    </message>
    <message>
        <source>with the cache</source>
        <translation>使用缓存</translation>
    </message>
    <message>
        <source>without the cache</source>
        <translation>不用缓存</translation>
    </message>
    <message>
        <source>Run a prompt: every step&apos;s cache size and forward-pass time appear here, measured.</source>
        <translation>运行一个提示词：每一步的缓存大小和前向计算时间会显示在这里，都是实测值。</translation>
    </message>
    <message>
        <source>Without it, step %1 recomputed all %2 positions: %3 ms against %4 ms, and %5 ms in total against %6 ms over the %7 steps measured.</source>
        <translation>不用缓存时，第 %1 步重新计算了全部 %2 个位置：%3 毫秒对 %4 毫秒；在测量的 %7 步中总计 %5 毫秒对 %6 毫秒。</translation>
    </message>
    <message>
        <source>(The no-cache timings were stopped.)</source>
        <translation>（不用缓存的计时已停止。）</translation>
    </message>
    <message>
        <source>The no-cache timings follow when Time without the cache is on.</source>
        <translation>勾选“测量不用缓存的时间”后，会接着给出不用缓存的计时。</translation>
    </message>
    <message>
        <source>reused from the cache</source>
        <translation>从缓存复用</translation>
    </message>
    <message>
        <source>computed in this step</source>
        <translation>本步计算</translation>
    </message>
    <message>
        <source>K/V rows without the cache</source>
        <translation>不用缓存的 K/V 行</translation>
    </message>
    <message>
        <source>K/V rows with the cache</source>
        <translation>使用缓存的 K/V 行</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Cache size per step</source>
        <translation>每步的缓存大小</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>Forward pass per decode step</source>
        <translation>每个解码步的前向计算</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Total time so far</source>
        <translation>累计时间</translation>
    </message>
    <message>
        <source>Which K/V rows each step reused and which it computed (rows: steps, columns: positions)</source>
        <translation>每一步复用了哪些 K/V 行、计算了哪些（行：步，列：位置）</translation>
    </message>
    <message>
        <source>As without the cache (every row computed again)</source>
        <translation>按不用缓存显示（每行都重新计算）</translation>
    </message>
    <message>
        <source>Run a prompt to see the cache grow.</source>
        <translation>运行一个提示词，观察缓存的增长。</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>KV bytes in use (MiB)</source>
        <translation>已用 KV 字节（MiB）</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s); the cache holds %1 positions in %2 MiB. With the cache each decode step computed 1 new K/V row per layer and read the rest back.</source>
        <translation>
            <numerusform>%Ln 步；缓存在 %2 MiB 中保存 %1 个位置。使用缓存时，每个解码步每层只计算 1 行新的 K/V，其余从缓存读回。</numerusform>
        </translation>
    </message>
    <message>
        <source>Each step&apos;s time appears as the prompt runs.</source>
        <translation>运行提示词时，这里显示每一步的耗时。</translation>
    </message>
    <message>
        <source>Each step&apos;s cache size appears as the prompt runs.</source>
        <translation>运行提示词时，这里显示每一步的缓存大小。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvHeatmapPanel</name>
    <message>
        <source>Step %1:</source>
        <translation>第 %1 步：</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>步：</translation>
    </message>
    <message>
        <source>Run a prompt to fill the cache.</source>
        <translation>运行一个提示词来填充缓存。</translation>
    </message>
    <message>
        <source>The cache is f32: there is nothing to compare. Run with f16 or q8_0 to see the error.</source>
        <translation>缓存是 f32：没有可比较的对象。请用 f16 或 q8_0 运行以查看误差。</translation>
    </message>
    <message>
        <source>This run recorded no attention.</source>
        <translation>本次运行没有记录注意力。</translation>
    </message>
    <message>
        <source>Every query head has its own K/V head (multi-head attention): %1 K/V heads per layer.</source>
        <translation>每个查询头都有自己的 K/V 头（多头注意力）：每层 %1 个 K/V 头。</translation>
    </message>
    <message>
        <source>Grouped-query attention: %1 query heads share %2 K/V heads, %3 per group — the cache stores %2 heads per layer, not %1. Choose &apos;Layers × KV heads&apos; to see each group.</source>
        <translation>分组查询注意力：%1 个查询头共享 %2 个 K/V 头，每组 %3 个——缓存每层存 %2 个头，而不是 %1 个。选择“层 × KV 头”可查看每一组。</translation>
    </message>
    <message numerus="yes">
        <source>Attention was recorded at %n step(s) of this run; the slider walks through them.</source>
        <translation>
            <numerusform>本次运行在 %Ln 个步骤记录了注意力；滑块可以逐一查看。</numerusform>
        </translation>
    </message>
    <message>
        <source>K/V head %1 is read by query heads %2–%3</source>
        <translation>K/V 头 %1 由查询头 %2–%3 读取</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Layers × KV heads</source>
        <translation>层 × KV 头</translation>
    </message>
    <message>
        <source>&amp;Log colours</source>
        <translation>对数配色(&amp;L)</translation>
    </message>
    <message>
        <source>Colours on a log scale: small attention weights (down to 1 % of an even share) become distinguishable</source>
        <translation>使用对数色阶：较小的注意力权重（低至均匀份额的 1%）也能分辨</translation>
    </message>
    <message>
        <source>The run is filling the cache; the map appears when it ends.</source>
        <translation>运行正在填充缓存；运行结束时显示热图。</translation>
    </message>
    <message>
        <source>Sho&amp;w:</source>
        <translation>显示(&amp;W)：</translation>
    </message>
    <message>
        <source>R&amp;ows:</source>
        <translation>行(&amp;O)：</translation>
    </message>
</context>
<context>
    <name>dlab::ui::KvPage</name>
    <message>
        <source>&amp;KV cache</source>
        <translation>KV 缓存(&amp;K)</translation>
    </message>
    <message>
        <source>The KV cache of a run: growth and timings with and without it, the memory heatmap, paged blocks, compression and eviction, and the memory calculator</source>
        <translation>一次运行的 KV 缓存：增长情况以及有无缓存的耗时、内存热力图、分页块、压缩与驱逐，以及内存计算器</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3 positions cached.</source>
        <translation>第 %1 / %2 步：已缓存 %3 个位置。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>Stopped. </source>
        <translation>已停止。</translation>
    </message>
    <message numerus="yes">
        <source>%n sequence(s), %1 positions in sequence 1, measured in %2 ms. It continued: “%3”</source>
        <translation>
            <numerusform>%Ln 个序列，序列 1 有 %1 个位置，测量耗时 %2 毫秒。续写：“%3”</numerusform>
        </translation>
    </message>
    <message>
        <source>Positions cached in the first sequence of the KV page&apos;s run</source>
        <translation>KV 页面本次运行中第一个序列缓存的位置数</translation>
    </message>
    <message>
        <source>Export the tab in front</source>
        <translation>导出当前标签页</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>&amp;Prompt</source>
        <translation>提示词(&amp;P)</translation>
    </message>
    <message>
        <source>S&amp;teps</source>
        <translation>步数(&amp;T)</translation>
    </message>
    <message>
        <source>Se&amp;quences</source>
        <translation>序列数(&amp;Q)</translation>
    </message>
    <message>
        <source>Continuations forked from the prompt; they share its KV blocks (sampled at temperature 0.8 when more than one)</source>
        <translation>从提示词分叉出的续写；它们共享提示词的 KV 块（多于一个时以温度 0.8 采样）</translation>
    </message>
    <message>
        <source>KV &amp;dtype</source>
        <translation>KV 数据类型(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Block</source>
        <translation>块大小(&amp;B)</translation>
    </message>
    <message>
        <source>Positions per KV block</source>
        <translation>每个 KV 块的位置数</translation>
    </message>
    <message>
        <source>After the run, the same tokens again recomputing every prefix (at most %1 steps): the growth chart&apos;s comparison</source>
        <translation>运行后用相同的词元再跑一遍，每步重新计算整个前缀（最多 %1 步）：即增长图中的对比</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the prompt into a fresh KV cache (F5)</source>
        <translation>把提示词运行到一个全新的 KV 缓存中（F5）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the run or the measurement (Esc)</source>
        <translation>停止运行或测量（Esc）</translation>
    </message>
    <message>
        <source>Save the tab in front as a PNG or SVG image</source>
        <translation>把当前标签页保存为 PNG 或 SVG 图像</translation>
    </message>
    <message>
        <source>Growth</source>
        <translation>增长</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Compression</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>Calculator</source>
        <translation>计算器</translation>
    </message>
    <message>
        <source>Run a prompt: the page measures the KV cache of that run — every chart and cell is the engine&apos;s number.</source>
        <translation>运行一个提示词：本页测量该次运行的 KV 缓存——每个图表和单元格都是引擎给出的数字。</translation>
    </message>
    <message>
        <source>Time witho&amp;ut the cache</source>
        <translation>测量不用缓存的时间(&amp;U)</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
</context>
<context>
    <name>dlab::ui::LessonPanel</name>
    <message>
        <source>&amp;Lesson</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Set up the page</source>
        <translation>设置页面</translation>
    </message>
    <message>
        <source>Put the lesson&apos;s prompt and settings on its page and start it; your own settings are kept</source>
        <translation>将课程的提示词和设置应用到其页面并开始；您自己的设置会被保留</translation>
    </message>
    <message>
        <source>Restore my settings</source>
        <translation>恢复我的设置</translation>
    </message>
    <message>
        <source>Put back the prompt and settings you had before the lesson set up the page</source>
        <translation>恢复课程设置页面之前您的提示词和设置</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一课</translation>
    </message>
    <message>
        <source>The previous lesson</source>
        <translation>上一课</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一课</translation>
    </message>
    <message>
        <source>The next lesson</source>
        <translation>下一课</translation>
    </message>
    <message>
        <source>Some lesson files could not be read:</source>
        <translation>部分课程文件无法读取：</translation>
    </message>
    <message>
        <source>Try this</source>
        <translation>试一试</translation>
    </message>
    <message>
        <source>No lessons were found.</source>
        <translation>未找到课程。</translation>
    </message>
    <message>
        <source>Lesson %1 of %2</source>
        <translation>第 %1 课，共 %2 课</translation>
    </message>
</context>
<context>
    <name>dlab::ui::LogitBias</name>
    <message>
        <source>Logit bias entry %1 (“%2”) is not TOKEN_ID:BIAS; write e.g. 198:-2 or 198:ban.</source>
        <translation>logit 偏置第 %1 项（“%2”）不是 TOKEN_ID:BIAS 格式；请写成例如 198:-2 或 198:ban。</translation>
    </message>
    <message>
        <source>Logit bias entry %1: token id %2 is outside the vocabulary (0 to %3).</source>
        <translation>logit 偏置第 %1 项：词元 ID %2 超出词表范围（0 到 %3）。</translation>
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
            <numerusform>%Ln 个线程</numerusform>
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
            <numerusform>CPU，%Ln 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>The model file (memory-mapped) and the key/value cache blocks in use</source>
        <translation>模型文件（内存映射）以及正在使用的键值（KV）缓存块</translation>
    </message>
    <message>
        <source>last answer: time to first token %1 ms; %2 of its %3 prompt tokens came from the KV cache</source>
        <translation>上一个回答：首词元 %1 ms；%3 个提示词元中有 %2 个来自 KV 缓存</translation>
    </message>
    <message>
        <source>Load a model first: the lesson runs on it.</source>
        <translation>请先加载模型：课程要在模型上运行。</translation>
    </message>
    <message>
        <source>Text at %1 %</source>
        <translation>文字 %1%</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Large text and thick lines, readable from the back of a lecture room</source>
        <translation>大号文字和粗线条，在教室后排也能看清</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>课程(&amp;E)</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Show the &amp;lessons panel</source>
        <translation>显示课程面板(&amp;L)</translation>
    </message>
    <message>
        <source>The saved CPU thread count “%1” (settings: %2, key backend/threads) is not between 0 and %3; using the automatic count.</source>
        <translation>保存的 CPU 线程数“%1”（设置：%2，键 backend/threads）不在 0 到 %3 之间；改用自动线程数。</translation>
    </message>
    <message numerus="yes">
        <source>The backend now uses %n thread(s); the model and the generated text stay.</source>
        <translation>
            <numerusform>后端现在使用 %Ln 个线程；模型和已生成的文本保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
In its metadata: %2
%3</source>
        <translation>%1
元数据中的名称：%2
%3</translation>
    </message>
    <message>
        <source>Replay a saved session: every step as it was recorded, with or without its model</source>
        <translation>回放已保存的会话：每一步都按录制时的样子显示，有没有模型都可以</translation>
    </message>
    <message>
        <source>&amp;Save Session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the front page&apos;s session (prompt, settings, every step&apos;s numbers) to replay it later</source>
        <translation>保存当前页面的会话（提示词、设置、每一步的数值），以便之后回放</translation>
    </message>
    <message>
        <source>There is no page to save a session from.</source>
        <translation>没有可以保存会话的页面。</translation>
    </message>
    <message>
        <source>%1: the session was recorded on the “%2” page, which this version of Decoding Lab does not have.</source>
        <translation>%1：该会话录制于“%2”页面，而此版本的 Decoding Lab 没有这个页面。</translation>
    </message>
    <message>
        <source>Saved the session to %1</source>
        <translation>会话已保存到 %1</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Decoding Lab sessions (*.dlab)</source>
        <translation>Decoding Lab 会话 (*.dlab)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Decoding Lab sessions (*.dlab);;All files (*)</source>
        <translation>Decoding Lab 会话 (*.dlab);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open S&amp;ession…</source>
        <translation>打开会话(&amp;E)…</translation>
    </message>
    <message>
        <source>The NVIDIA GPU, which this machine has</source>
        <translation>本机的 NVIDIA GPU</translation>
    </message>
    <message>
        <source>The CPU here: %1</source>
        <translation>此处使用 CPU：%1</translation>
    </message>
    <message>
        <source>Runs the model on the processor</source>
        <translation>在处理器上运行模型</translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation>CUDA GPU</translation>
    </message>
    <message>
        <source>Runs the model on the NVIDIA GPU</source>
        <translation>在 NVIDIA GPU 上运行模型</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>The saved backend “%1” (settings: %2, key backend/kind) is not auto, cpu or cuda; using automatic.</source>
        <translation>保存的后端“%1”（设置：%2，键 backend/kind）不是 auto、cpu 或 cuda；改用自动。</translation>
    </message>
    <message numerus="yes">
        <source>The model runs on the GPU; it will use %n CPU thread(s) when it runs on the CPU.</source>
        <translation>
            <numerusform>模型正在 GPU 上运行；在 CPU 上运行时将使用 %Ln 个 CPU 线程。</numerusform>
        </translation>
    </message>
    <message>
        <source>The model runs on the GPU; it will choose its CPU threads when it runs on the CPU.</source>
        <translation>模型正在 GPU 上运行；在 CPU 上运行时将自动选择 CPU 线程数。</translation>
    </message>
    <message>
        <source>&amp;Go to page</source>
        <translation>转到页面(&amp;G)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 — %2 parameters, %3 layers — %4</source>
        <translation>%1 — %2 参数，%3 层 — %4</translation>
    </message>
</context>
<context>
    <name>dlab::ui::Page</name>
    <message>
        <source>The %1 page does not save sessions.</source>
        <translation>“%1”页面不保存会话。</translation>
    </message>
    <message>
        <source>%1: the %2 page cannot show saved sessions.</source>
        <translation>%1：“%2”页面无法显示已保存的会话。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::PlaygroundController</name>
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
        <source>original</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>分支 %1</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>The constraint forbids “%1” at step %2: choose a token it allows, or switch the constraint off.</source>
        <translation>约束在第 %2 步禁止“%1”：请选择一个它允许的词元，或关闭约束。</translation>
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
            <numerusform>按这些设置，第 %1 步会选择“%2”（p = %3）；保留 %Ln 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 chose “%2” (p = %3); %n token(s) kept after the chain</source>
        <translation>
            <numerusform>第 %1 步选择了“%2”（p = %3）；采样链之后保留 %Ln 个词元</numerusform>
        </translation>
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
    <message numerus="yes">
        <source>The prompt is %n token(s) (%1 special); each shows its id. The model sees only these numbers.</source>
        <translation>
            <numerusform>提示词共 %Ln 个词元（其中 %1 个特殊词元）；每个都显示其 ID。模型只看到这些数字。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Original (%n token(s))</source>
        <translation>
            <numerusform>原始（%Ln 个词元）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Branch %1: “%2” at step %3 (%n token(s))</source>
        <translation>
            <numerusform>分支 %1：第 %3 步选“%2”（%Ln 个词元）</numerusform>
        </translation>
    </message>
    <message>
        <source>Step once to see the prompt as the model&apos;s tokens.</source>
        <translation>执行一步即可看到提示词在模型中的词元。</translation>
    </message>
    <message>
        <source>Ban “%1” (id %2) with the logit bias</source>
        <translation>用 logit 偏置禁止“%1”（ID %2）</translation>
    </message>
    <message numerus="yes">
        <source>Switched to another branch: %n token(s) generated on it. Step or Run continues it.</source>
        <translation>
            <numerusform>已切换到另一个分支：该分支已生成 %Ln 个词元。单步或运行将继续它。</numerusform>
        </translation>
    </message>
    <message>
        <source>Hugging Face order</source>
        <translation>Hugging Face 顺序</translation>
    </message>
    <message>
        <source>llama.cpp order</source>
        <translation>llama.cpp 顺序</translation>
    </message>
    <message>
        <source>Custom order</source>
        <translation>自定义顺序</translation>
    </message>
    <message>
        <source>Advanced samplers</source>
        <translation>高级采样器</translation>
    </message>
    <message>
        <source>Typical-p, top-n-σ, XTC, DRY, Mirostat, no-repeat-n-gram, logit bias and the penalty window</source>
        <translation>typical-p、top-n-σ、XTC、DRY、Mirostat、禁止重复 n 元组、logit 偏置和惩罚窗口</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Pick a new seed at random (takes effect at Reset)</source>
        <translation>随机选择新种子（重置后生效）</translation>
    </message>
    <message>
        <source>Use this choice</source>
        <translation>采用此选择</translation>
    </message>
    <message>
        <source>Continue from this step with the token these settings choose (a branch: the tokens before it are kept)</source>
        <translation>从这一步起改用这些设置选出的词元继续（一个分支：之前的词元保留）</translation>
    </message>
    <message>
        <source>Restore my settings</source>
        <translation>恢复我的设置</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Probability on a logarithmic axis: the long tail of unlikely tokens becomes visible</source>
        <translation>以对数坐标显示概率：低概率词元的长尾清晰可见</translation>
    </message>
    <message>
        <source>Bars</source>
        <translation>柱数</translation>
    </message>
    <message>
        <source>How many of the most likely tokens the chart and the table show</source>
        <translation>图表和表格显示多少个最可能的词元</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>纯文本</translation>
    </message>
    <message>
        <source>Show the generated text as plain text instead of tokens</source>
        <translation>以纯文本而非词元显示生成的文本</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Every continuation you branched off stays: switch between them here</source>
        <translation>您分出的每个续写都会保留：在这里切换</translation>
    </message>
    <message>
        <source>Put back the prompt and the sampler settings you had before the demo or lesson</source>
        <translation>恢复演示或课程之前的提示词和采样设置</translation>
    </message>
    <message>
        <source>Mirostat 2 order</source>
        <translation>Mirostat 2 顺序</translation>
    </message>
    <message>
        <source>Mirostat 1 order</source>
        <translation>Mirostat 1 顺序</translation>
    </message>
    <message>
        <source>The engine&apos;s named stage orders: Hugging Face (penalties, temperature, top-k, top-p, min-p), llama.cpp (penalties, DRY, top-n-σ, top-k, typical, top-p, min-p, XTC, temperature last) and Mirostat 1 and 2 (penalties, temperature, Mirostat).</source>
        <translation>引擎内置的阶段顺序：Hugging Face（惩罚、温度、top-k、top-p、min-p）、llama.cpp（惩罚、DRY、top-n-σ、top-k、typical、top-p、min-p、XTC，最后温度）以及 Mirostat 1 和 2（惩罚、温度、Mirostat）。</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词元</translation>
    </message>
    <message>
        <source>Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times and %4 tokens of it again (highlighted).</source>
        <translation>检测到循环：最后 %1 个词元是一个 %2 个词元的块重复 %3 次，再加上其中的 %4 个词元（已高亮）。</translation>
    </message>
    <message>
        <source>Loop detected: the last %1 tokens are a block of %2 tokens repeated %3 times (highlighted).</source>
        <translation>检测到循环：最后 %1 个词元是一个 %2 个词元的块重复 %3 次（已高亮）。</translation>
    </message>
    <message>
        <source>Greedy decoding keeps choosing the same continuation; sampling or a repetition penalty breaks it.</source>
        <translation>贪心解码一直选择同样的续写；采样或重复惩罚可以打破循环。</translation>
    </message>
    <message>
        <source>Even sampled, the repeated tokens stay the likeliest; a repetition penalty, DRY or no-repeat-n-gram breaks the loop.</source>
        <translation>即使采样，重复的词元仍然最有可能；重复惩罚、DRY 或禁止重复 n 元组可以打破循环。</translation>
    </message>
    <message>
        <source>The seed takes effect at Reset: the steps so far keep the draws of seed %1.</source>
        <translation>种子在重置后生效：已有的步骤保留种子 %1 的抽样结果。</translation>
    </message>
    <message>
        <source>Positions used by the playground&apos;s current branch, of the context the session allows</source>
        <translation>演练场当前分支已占用的位置数 / 本次会话允许的上下文长度</translation>
    </message>
    <message>
        <source>&amp;Playground</source>
        <translation>演练场(&amp;P)</translation>
    </message>
    <message>
        <source>Step through generation one token at a time and see what the sampler does</source>
        <translation>逐个词元单步生成，观察采样器做了什么</translation>
    </message>
    <message>
        <source>The playground has no steps to save yet: press Step or Run first.</source>
        <translation>演练场还没有可保存的步骤：请先点击“单步”或“运行”。</translation>
    </message>
    <message>
        <source>%1 was recorded on another page, not the playground.</source>
        <translation>%1 是在其他页面上录制的，不是在演练场。</translation>
    </message>
    <message>
        <source>This branch of the session has no recorded steps.</source>
        <translation>会话的这个分支没有录制的步骤。</translation>
    </message>
    <message>
        <source>The recorded step before this one (PageUp)</source>
        <translation>上一个录制的步骤（PageUp）</translation>
    </message>
    <message>
        <source>The recorded step after this one (PageDown)</source>
        <translation>下一个录制的步骤（PageDown）</translation>
    </message>
    <message>
        <source>Replaying %1 (recorded on %2); Reset to leave the replay.</source>
        <translation>正在回放 %1（录制于 %2）；点击“重置”退出回放。</translation>
    </message>
    <message>
        <source>Everything shown comes from the file: the steps as they were computed. Step, Run, the sampler settings and branching need the model and are off while replaying; click a token to see its step.</source>
        <translation>显示的一切都来自文件：即当时计算出的各个步骤。单步、运行、采样器设置和分叉都需要模型，回放期间不可用；点击一个词元即可查看它的那一步。</translation>
    </message>
    <message>
        <source>No steps</source>
        <translation>没有步骤</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · KV cache %3 in %n block(s)</source>
        <translation>
            <numerusform>第 %1 步，共 %2 步 · KV 缓存 %3，共 %Ln 个块</numerusform>
        </translation>
    </message>
    <message>
        <source>After this step the KV cache held %1 positions in %2 blocks, %3 of them shared between branches (sharing saved %4).</source>
        <translation>这一步之后，KV 缓存在 %2 个块中保存了 %1 个位置，其中 %3 个块由各分支共享（共享节省了 %4）。</translation>
    </message>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1%</translation>
    </message>
    <message>
        <source>&gt; %1 %</source>
        <translation>&gt; %1%</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>The text generated so far does not fit the new constraint: the playground starts over from the prompt. Press Step.</source>
        <translation>目前生成的文本不符合新的约束：演练场从提示词重新开始。请按“单步”。</translation>
    </message>
    <message>
        <source>Removed by the grammar</source>
        <translation>被语法移除</translation>
    </message>
    <message>
        <source>For each generated token, the share of the probability the grammar forbade at that step: the price of the constraint. Hover a bar for the number and the best token it took away.</source>
        <translation>对每个生成的词元：语法在该步骤禁止掉的概率份额，即约束的代价。把鼠标悬停在柱上可查看数值以及它拿走的最可能的词元。</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>平均 %1</translation>
    </message>
    <message>
        <source>The grammar removed %1 of the probability on average over these steps, %2 at most.</source>
        <translation>在这些步骤中，语法平均移除了 %1 的概率，最多 %2。</translation>
    </message>
    <message>
        <source>The same prompt with the same settings and seed, generated step by step beside the constrained text but without the constraint.</source>
        <translation>相同的提示词、设置和种子，在受约束文本旁逐步生成，但不加约束。</translation>
    </message>
    <message>
        <source>Without the constraint (same prompt, settings and seed)</source>
        <translation>无约束（相同的提示词、设置和种子）</translation>
    </message>
    <message>
        <source>Without the constraint: leaves it at token %1 (“%2”)</source>
        <translation>无约束：在第 %1 个词元（“%2”）处违反约束</translation>
    </message>
    <message>
        <source>Its token %1 (“%2”, highlighted) is one the grammar forbids there: from it on, this text no longer fits the constraint.</source>
        <translation>它的第 %1 个词元（“%2”，已高亮）在该处被语法禁止：从它开始，这段文本不再符合约束。</translation>
    </message>
    <message>
        <source>Without the constraint: ended, and fits it</source>
        <translation>无约束：已结束，且符合约束</translation>
    </message>
    <message>
        <source>It ended with a text the constraint accepts.</source>
        <translation>它以约束所接受的文本结束。</translation>
    </message>
    <message>
        <source>Without the constraint: fits it so far</source>
        <translation>无约束：目前仍符合约束</translation>
    </message>
    <message>
        <source>Every token so far is one the grammar would have allowed too.</source>
        <translation>目前为止的每个词元，语法也都会允许。</translation>
    </message>
    <message>
        <source>Replay: the recorded step before this one</source>
        <translation>回放：上一个记录的步骤</translation>
    </message>
    <message>
        <source>Replay: the recorded step after this one</source>
        <translation>回放：下一个记录的步骤</translation>
    </message>
    <message>
        <source>H in bits</source>
        <translation>H（比特）</translation>
    </message>
    <message>
        <source>H in nats</source>
        <translation>H（奈特）</translation>
    </message>
    <message>
        <source>The unit of H, the entropy. Entropy measures how spread out the distribution is: 0 when one token is certain, log2(n) bits for n equally likely tokens (1 nat = 1.44 bits)</source>
        <translation>H（熵）的单位。熵衡量分布的分散程度：某个词元确定时为 0，n 个等可能词元时为 log2(n) 比特（1 奈特 = 1.44 比特）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::RequestLogModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 + %2</source>
        <translation>%1 + %2</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流式</translation>
    </message>
    <message>
        <source>Tokens (prompt + completion)</source>
        <translation>词元（提示词 + 补全）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Finish or error</source>
        <translation>结束原因或错误</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServeController</name>
    <message>
        <source>No model is loaded, so there is nothing to serve.</source>
        <translation>尚未加载模型，没有可提供服务的内容。</translation>
    </message>
    <message>
        <source>Cannot listen on %1: the address is not this machine&apos;s.</source>
        <translation>无法在 %1 上监听：该地址不属于本机。</translation>
    </message>
    <message>
        <source>Cannot listen on %1:%2: the port is in use or the address is not this machine&apos;s. Choose another port (0 picks a free one).</source>
        <translation>无法在 %1:%2 上监听：端口已被占用，或该地址不属于本机。请选择其他端口（0 表示任选一个空闲端口）。</translation>
    </message>
    <message>
        <source>This build of Decoding Lab has no HTTP server (it was built without cpp-httplib).</source>
        <translation>此版本的 Decoding Lab 没有 HTTP 服务器（构建时未包含 cpp-httplib）。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServePage</name>
    <message>
        <source>Se&amp;rve</source>
        <translation>服务(&amp;R)</translation>
    </message>
    <message>
        <source>Serve the loaded model over an OpenAI-compatible HTTP API with continuous batching, and watch its requests</source>
        <translation>通过兼容 OpenAI 的 HTTP API（连续批处理）提供已加载的模型，并查看其请求</translation>
    </message>
    <message>
        <source>Give the address to listen on (127.0.0.1 serves this machine only).</source>
        <translation>请填写监听地址（127.0.0.1 只为本机提供服务）。</translation>
    </message>
    <message>
        <source>%1 is not a loopback address: to let other machines reach the server, tick “%2” instead.</source>
        <translation>%1 不是回环地址：若要让其他机器访问服务器，请改为勾选“%2”。</translation>
    </message>
    <message>
        <source>Starting… (the server starts once the engine has finished the work in front of it)</source>
        <translation>正在启动……（引擎完成排在前面的工作后，服务器即会启动）</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止……</translation>
    </message>
    <message>
        <source>Serving %1 on %2 (%3, batch up to %4, %5 positions per request, prefix cache %6). While it serves, the server holds the engine: the other pages&apos; work waits until you stop it.</source>
        <translation>正在 %2 上提供 %1（%3，批大小至多 %4，每个请求 %5 个位置，前缀缓存%6）。服务期间服务器独占引擎：其他页面的工作会等到你停止它为止。</translation>
    </message>
    <message>
        <source>static batching</source>
        <translation>静态批处理</translation>
    </message>
    <message>
        <source>continuous batching</source>
        <translation>连续批处理</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>The server stopped to let the new model load.</source>
        <translation>服务器已停止，以便加载新模型。</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n request(s): the port is free and the engine is back for the other pages.</source>
        <translation>
            <numerusform>处理 %Ln 个请求后已停止：端口已释放，引擎重新供其他页面使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>未启动。</translation>
    </message>
    <message>
        <source>(%1 cancelled or failed)</source>
        <translation>（%1 个已取消或失败）</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>运行中：%1</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>等待中：%1</translation>
    </message>
    <message>
        <source>Decode tokens/s (last %1 s): %2</source>
        <translation>解码词元/秒（最近 %1 秒）：%2</translation>
    </message>
    <message>
        <source>Tokens the decode steps produced in the last %1 seconds, from the serving loop&apos;s steps</source>
        <translation>最近 %1 秒内解码步骤生成的词元数，取自服务循环的各个步骤</translation>
    </message>
    <message>
        <source>The Serve page uses no context of its own</source>
        <translation>服务页面没有自己的上下文</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>地址(&amp;A)</translation>
    </message>
    <message>
        <source>The address to listen on: 127.0.0.1 serves this machine only</source>
        <translation>监听地址：127.0.0.1 只为本机提供服务</translation>
    </message>
    <message>
        <source>Allow other &amp;machines (listen on all addresses)</source>
        <translation>允许其他机器访问(&amp;M)（监听所有地址）</translation>
    </message>
    <message>
        <source>Listen on 0.0.0.0, so that other machines on the network can reach the server</source>
        <translation>监听 0.0.0.0，使网络上的其他机器可以访问服务器</translation>
    </message>
    <message>
        <source>⚠ Other machines on the network can reach this server and use the model: it has no password. Untick the box to serve this machine only.</source>
        <translation>⚠ 网络上的其他机器可以访问此服务器并使用模型：它没有密码。取消勾选即可只为本机提供服务。</translation>
    </message>
    <message>
        <source>&amp;Port</source>
        <translation>端口(&amp;P)</translation>
    </message>
    <message>
        <source>0 picks any free port</source>
        <translation>0 表示任选一个空闲端口</translation>
    </message>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Max &amp;batch</source>
        <translation>最大批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Requests decoded together in one step</source>
        <translation>在同一步中一起解码的请求数</translation>
    </message>
    <message>
        <source>C&amp;ontext</source>
        <translation>上下文(&amp;O)</translation>
    </message>
    <message>
        <source>Positions per request (prompt and answer), at most the model&apos;s trained context</source>
        <translation>每个请求的位置数（提示词和回答），至多为模型训练时的上下文长度</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静态</translation>
    </message>
    <message>
        <source>Continuous: a request joins the batch at the next step. Static: a batch runs until its longest request is done.</source>
        <translation>连续：请求在下一步加入批次。静态：一个批次一直运行到其中最长的请求完成。</translation>
    </message>
    <message>
        <source>Prefix &amp;cache</source>
        <translation>前缀缓存(&amp;C)</translation>
    </message>
    <message>
        <source>Reuse the KV blocks of prompt prefixes that earlier requests computed</source>
        <translation>复用先前请求已计算的提示词前缀的 KV 块</translation>
    </message>
    <message>
        <source>Start the server (F5)</source>
        <translation>启动服务器（F5）</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the server; open requests end as cancelled (Esc)</source>
        <translation>停止服务器；未完成的请求以取消结束（Esc）</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>基础 URL：</translation>
    </message>
    <message>
        <source>curl</source>
        <translation>curl</translation>
    </message>
    <message>
        <source>Python (openai package)</source>
        <translation>Python（openai 包）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the curl command</source>
        <translation>复制 curl 命令</translation>
    </message>
    <message>
        <source>Copy the Python example</source>
        <translation>复制 Python 示例</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Start the server to use the loaded model from other programs through the OpenAI API. While it serves, it holds the engine: the other pages&apos; work waits until it stops.</source>
        <translation>启动服务器后，其他程序即可通过 OpenAI API 使用已加载的模型。服务期间它独占引擎：其他页面的工作会等到它停止为止。</translation>
    </message>
    <message>
        <source>The server holds the model: stop it on the Serve page to go on here.</source>
        <translation>服务器正在占用模型：请在“服务”页停止它，以便在此继续。</translation>
    </message>
    <message>
        <source>Batchin&amp;g</source>
        <translation>批处理(&amp;G)</translation>
    </message>
    <message>
        <source>Sta&amp;rt</source>
        <translation>启动(&amp;R)</translation>
    </message>
    <message>
        <source>Completions served: %1</source>
        <translation>已完成的补全：%1</translation>
    </message>
    <message>
        <source>Completion and chat requests that generated their answer to the end (a stop or the token limit). The request log below lists every request, also /v1/models, /health and those refused before generating.</source>
        <translation>已把回答生成到结束（遇到停止条件或达到词元上限）的补全和聊天请求。下方的请求日志列出每一个请求，包括 /v1/models、/health 以及在生成之前被拒绝的请求。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingBatchPanel</name>
    <message>
        <source>“%1” is not a batch size: write whole numbers from 1 to 64, separated by commas (1, 2, 4, 8).</source>
        <translation>“%1”不是批大小：请填写 1 到 64 的整数，用逗号分隔（1, 2, 4, 8）。</translation>
    </message>
    <message>
        <source>Write at least one batch size (1, 2, 4, 8).</source>
        <translation>请至少填写一个批大小（1, 2, 4, 8）。</translation>
    </message>
    <message>
        <source>at p50 inter-token latency</source>
        <translation>按 p50 词元间延迟</translation>
    </message>
    <message>
        <source>at p99 inter-token latency</source>
        <translation>按 p99 词元间延迟</translation>
    </message>
    <message>
        <source>Measure: for each batch size B the engine decodes B requests together. A bigger batch makes more tokens per second in total, and each user waits longer between tokens.</source>
        <translation>测量：对每个批大小 B，引擎一起解码 B 个请求。批次越大，每秒生成的词元总数越多，而每个用户等待相邻词元的时间也越长。</translation>
    </message>
    <message>
        <source>Measured on this machine: batch %1 decodes %2 tokens/s at %3 ms between a user&apos;s tokens; batch %4 decodes %5 tokens/s at %6 ms.</source>
        <translation>在本机测得：批大小 %1 每秒解码 %2 个词元，每个用户相邻词元间隔 %3 毫秒；批大小 %4 每秒解码 %5 个词元，间隔 %6 毫秒。</translation>
    </message>
    <message>
        <source>(Stopped before every batch size was measured.)</source>
        <translation>（在测完所有批大小之前已停止。）</translation>
    </message>
    <message>
        <source>Interactive chat</source>
        <translation>交互式聊天</translation>
    </message>
    <message>
        <source>Batch processing</source>
        <translation>批量处理</translation>
    </message>
    <message>
        <source>Code completion</source>
        <translation>代码补全</translation>
    </message>
    <message>
        <source>p99 inter-token latency ≤ %1 ms</source>
        <translation>p99 词元间延迟 ≤ %1 毫秒</translation>
    </message>
    <message>
        <source>throughput (tokens/s)</source>
        <translation>吞吐量（词元/秒）</translation>
    </message>
    <message>
        <source>p99 time to first token ≤ %1 ms</source>
        <translation>p99 首词元时间 ≤ %1 毫秒</translation>
    </message>
    <message>
        <source>Measure first.</source>
        <translation>请先测量。</translation>
    </message>
    <message>
        <source>batch %1 keeps p99 inter-token latency at %2 ms</source>
        <translation>批大小 %1 的 p99 词元间延迟为 %2 毫秒</translation>
    </message>
    <message>
        <source>no measured batch keeps p99 inter-token latency within %1 ms</source>
        <translation>没有哪个测得的批大小能把 p99 词元间延迟控制在 %1 毫秒以内</translation>
    </message>
    <message>
        <source>batch %1 decodes the most: %2 tokens/s</source>
        <translation>批大小 %1 解码最多：每秒 %2 个词元</translation>
    </message>
    <message>
        <source>batch %1 keeps p99 time to first token at %2 ms</source>
        <translation>批大小 %1 的 p99 首词元时间为 %2 毫秒</translation>
    </message>
    <message>
        <source>no measured batch keeps p99 time to first token within %1 ms</source>
        <translation>没有哪个测得的批大小能把 p99 首词元时间控制在 %1 毫秒以内</translation>
    </message>
    <message>
        <source>Batch si&amp;zes</source>
        <translation>批大小(&amp;Z)</translation>
    </message>
    <message>
        <source>Whole numbers from 1 to 64, separated by commas</source>
        <translation>1 到 64 的整数，用逗号分隔</translation>
    </message>
    <message>
        <source>&amp;Prompt tokens</source>
        <translation>提示词词元(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>测量(&amp;M)</translation>
    </message>
    <message>
        <source>Run one batch of each size on the loaded model (F5)</source>
        <translation>在已加载的模型上为每个批大小各运行一个批次（F5）</translation>
    </message>
    <message>
        <source>ms between a user&apos;s tokens</source>
        <translation>每个用户相邻词元间隔（毫秒）</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>Which batch size for which workload</source>
        <translation>哪种负载用哪个批大小</translation>
    </message>
    <message>
        <source>Chat: p99 inter-token &amp;latency at most</source>
        <translation>聊天：p99 词元间延迟至多(&amp;L)</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Optimises</source>
        <translation>优化目标</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
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
        <translation>实测值：每秒解码词元数，词元间延迟（ITL）与首词元时间（TTFT），单位毫秒：</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>输出词元(&amp;O)</translation>
    </message>
    <message>
        <source>Code completion: p99 &amp;time to first token at most</source>
        <translation>代码补全：p99 首词元时间至多(&amp;T)</translation>
    </message>
    <message>
        <source>Measure to draw one point per batch size.</source>
        <translation>点击“测量”，为每个批大小绘制一个点。</translation>
    </message>
    <message>
        <source>Throughput against latency, one point per batch size (its number beside it)</source>
        <translation>吞吐量与延迟，每个批大小一个点（旁边标着它的数字）</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingController</name>
    <message>
        <source>A request of up to %1 tokens (prompt and answer) does not fit the model&apos;s context of %2 positions: shorten the prompts or the answers.</source>
        <translation>最多 %1 个词元（提示词和回答）的请求放不进模型 %2 个位置的上下文：请缩短提示词或回答。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLabPage</name>
    <message>
        <source>Serving la&amp;b</source>
        <translation>服务实验(&amp;B)</translation>
    </message>
    <message>
        <source>%1: %2 of %3 requests finished, %4 steps so far…</source>
        <translation>%1：%3 个请求中已完成 %2 个，目前共 %4 步……</translation>
    </message>
    <message>
        <source>Static batching</source>
        <translation>静态批处理</translation>
    </message>
    <message>
        <source>Continuous batching</source>
        <translation>连续批处理</translation>
    </message>
    <message>
        <source>Stopped; what ran before Stop is shown.</source>
        <translation>已停止；显示的是停止前运行的部分。</translation>
    </message>
    <message>
        <source>Both runs done in %1 s of real time (the trace runs at its arrival times).</source>
        <translation>两次运行共用时 %1 秒真实时间（请求按其到达时间运行）。</translation>
    </message>
    <message>
        <source>Batch %1 measured (%2 of %3)…</source>
        <translation>已测量批大小 %1（%3 个中的第 %2 个）……</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n batch size(s).</source>
        <translation>
            <numerusform>测量 %Ln 个批大小后已停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n batch size(s) measured.</source>
        <translation>
            <numerusform>已测量 %Ln 个批大小。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Measured with and without the prefix cache.</source>
        <translation>已分别在启用和不启用前缀缓存时测量。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Static batching first: waiting for the first steps…</source>
        <translation>先运行静态批处理：正在等待最初的几步……</translation>
    </message>
    <message>
        <source>Measuring batch sizes…</source>
        <translation>正在测量批大小……</translation>
    </message>
    <message>
        <source>Running the requests with the prefix cache, then without…</source>
        <translation>正在先启用、再不启用前缀缓存运行这些请求……</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Streaming</source>
        <translation>流式输出</translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation>前缀缓存</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the run between two steps; what was measured stays (Esc)</source>
        <translation>在两步之间停止运行；已测得的结果保留（Esc）</translation>
    </message>
    <message>
        <source>Every bar, point and number on this page is measured by the engine on the loaded model, in real time.</source>
        <translation>本页的每个条形、每个点和每个数字都由引擎在已加载的模型上实时测得。</translation>
    </message>
    <message>
        <source>How a server batches requests, measured on the loaded model: static against continuous batching under load, batch size against latency, streaming, the prefix cache; and the layers of a safety pipeline on one prompt</source>
        <translation>服务器如何对请求进行批处理，在已加载的模型上实测：负载下的静态批处理与连续批处理、批大小与延迟、流式输出、前缀缓存；以及一个提示词经过安全流水线各层的过程</translation>
    </message>
    <message>
        <source>Decoding: step %1 of at most %2…</source>
        <translation>解码中：第 %1 步，最多 %2 步…</translation>
    </message>
    <message>
        <source>Stopped; the steps decoded before Stop are shown.</source>
        <translation>已停止；显示的是停止前解码的各步。</translation>
    </message>
    <message>
        <source>The input filter blocked the prompt; nothing was decoded.</source>
        <translation>输入过滤器拦下了提示词；没有进行任何解码。</translation>
    </message>
    <message>
        <source>The prompt went through the four layers.</source>
        <translation>提示词已经过全部四层。</translation>
    </message>
    <message>
        <source>Checking the prompt, then decoding…</source>
        <translation>正在检查提示词，然后解码…</translation>
    </message>
    <message>
        <source>Safety</source>
        <translation>安全</translation>
    </message>
    <message>
        <source>The policy cannot be used: %1</source>
        <translation>此策略无法使用：%1</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingLoadPanel</name>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>吞吐量（词元/秒）</translation>
    </message>
    <message>
        <source>Decode steps (tokens/s)</source>
        <translation>解码步骤（词元/秒）</translation>
    </message>
    <message>
        <source>TTFT p50 / p99 (ms)</source>
        <translation>TTFT p50 / p99（毫秒）</translation>
    </message>
    <message>
        <source>ITL p50 / p99 (ms)</source>
        <translation>ITL p50 / p99（毫秒）</translation>
    </message>
    <message>
        <source>End to end p50 / p99 (ms)</source>
        <translation>端到端 p50 / p99（毫秒）</translation>
    </message>
    <message>
        <source>Batch occupancy</source>
        <translation>批次占用率</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>Padding tokens</source>
        <translation>填充词元</translation>
    </message>
    <message>
        <source>Wall time (ms)</source>
        <translation>总耗时（毫秒）</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Run a load: the same requests arrive at random (Poisson) times and are served with static and then with continuous batching. Every bar is a step the engine ran.</source>
        <translation>运行一次负载：同一组请求在随机（泊松）时刻到达，先用静态批处理、再用连续批处理来服务。每个条形都是引擎实际运行的一步。</translation>
    </message>
    <message>
        <source>Stopped: the charts show the steps run before Stop; the metrics of a mode that did not finish stay empty.</source>
        <translation>已停止：图中是停止前运行的步骤；未完成的模式的指标留空。</translation>
    </message>
    <message numerus="yes">
        <source>The same %n request(s) both ways. Continuous batching: %1 tokens/s, p99 time to first token %2 ms. Static batching: %3 tokens/s, p99 time to first token %4 ms, and %5 padding tokens computed for requests that had already finished.</source>
        <translation>
            <numerusform>同样的 %Ln 个请求分别用两种方式运行。连续批处理：每秒 %1 个词元，p99 首词元时间 %2 毫秒。静态批处理：每秒 %3 个词元，p99 首词元时间 %4 毫秒，并为已经完成的请求计算了 %5 个填充词元。</numerusform>
        </translation>
    </message>
    <message>
        <source> req/s</source>
        <translation> 请求/秒</translation>
    </message>
    <message>
        <source>Mean arrivals per second; the requests arrive independently (a Poisson process)</source>
        <translation>每秒平均到达数；请求彼此独立地到达（泊松过程）</translation>
    </message>
    <message>
        <source>Re&amp;quests</source>
        <translation>请求数(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Prompt tokens</source>
        <translation>提示词词元(&amp;P)</translation>
    </message>
    <message>
        <source>Each request generates a length drawn from this range</source>
        <translation>每个请求生成的长度从此范围中随机抽取</translation>
    </message>
    <message>
        <source>Every prompt starts with the same tokens, which the prefix cache can share</source>
        <translation>每个提示词都以相同的词元开头，前缀缓存可以共享它们</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Max &amp;batch</source>
        <translation>最大批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Token bud&amp;get</source>
        <translation>词元预算(&amp;G)</translation>
    </message>
    <message>
        <source>Tokens evaluated per step: decode tokens and prefill chunks together</source>
        <translation>每步计算的词元数：解码词元与预填充块合计</translation>
    </message>
    <message>
        <source>&amp;X axis</source>
        <translation>横轴(&amp;X)</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the trace with static, then with continuous batching (F5)</source>
        <translation>先用静态批处理、再用连续批处理运行这组请求（F5）</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>测量结果</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静态</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>Static batching: a batch starts when it is full (or its first request waited 1 s) and runs until its longest request is done</source>
        <translation>静态批处理：批次满了（或其首个请求已等待 1 秒）才开始，一直运行到其中最长的请求完成</translation>
    </message>
    <message>
        <source>Continuous batching: a request joins at the next step with a free slot and leaves when it is done</source>
        <translation>连续批处理：请求在下一个有空位的步骤加入，完成即离开</translation>
    </message>
    <message>
        <source>Run a load to see the requests join and leave the batch.</source>
        <translation>运行一次负载，看请求如何加入和离开批次。</translation>
    </message>
    <message>
        <source>R&amp;ate</source>
        <translation>速率(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>输出词元(&amp;O)</translation>
    </message>
    <message>
        <source>Shared s&amp;ystem prompt</source>
        <translation>共享系统提示词(&amp;Y)</translation>
    </message>
    <message numerus="yes">
        <source>#%1 (%n token(s))</source>
        <translation>
            <numerusform>#%1（%Ln 个词元）</numerusform>
        </translation>
    </message>
    <message>
        <source>No system prompt is shared, yet %1 % of the prompt tokens came from the prefix cache: the prompts are cut from one sample text, and %2 began where an earlier prompt began.</source>
        <translation>没有共享的系统提示词，但仍有 %1% 的提示词元来自前缀缓存：所有提示词都截取自同一段示例文本，而 %2 的开头与之前某个提示词的开头相同。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingPrefixPanel</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Run: the requests share one system prompt and run one at a time, first with the prefix cache, then without. With the cache only the first request computes the shared prompt; the others find its KV blocks and start from there.</source>
        <translation>运行：这些请求共享一个系统提示词，逐个运行，先启用前缀缓存，再不启用。启用缓存时只有第一个请求计算共享提示词；其余请求找到它的 KV 块，从那里接着算。</translation>
    </message>
    <message>
        <source>TTFT p50 with the cache</source>
        <translation>TTFT p50（启用缓存）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>TTFT p50 without the cache</source>
        <translation>TTFT p50（不启用缓存）</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) with a shared system prompt of %1 tokens: the median time to first token is %2 ms with the prefix cache and %3 ms without; %4&#xa0;% of the prompt tokens came from the cache.</source>
        <translation>
            <numerusform>%Ln 个请求共享 %1 个词元的系统提示词：首词元时间中位数启用前缀缓存时为 %2 毫秒，不启用时为 %3 毫秒；%4% 的提示词词元来自缓存。</numerusform>
        </translation>
    </message>
    <message>
        <source>(Stopped before the end: the numbers cover the requests that finished.)</source>
        <translation>（在结束前已停止：数字只涵盖已完成的请求。）</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>&amp;User tokens</source>
        <translation>用户词元(&amp;U)</translation>
    </message>
    <message>
        <source>Each request&apos;s own tokens after the system prompt</source>
        <translation>每个请求在系统提示词之后自己的词元</translation>
    </message>
    <message>
        <source>Re&amp;quests</source>
        <translation>请求数(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the requests with the prefix cache and again without it (F5)</source>
        <translation>先启用前缀缓存运行这些请求，再不启用运行一次（F5）</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>测量结果</translation>
    </message>
    <message>
        <source>with the cache</source>
        <translation>启用缓存</translation>
    </message>
    <message>
        <source>without</source>
        <translation>不启用</translation>
    </message>
    <message>
        <source>TTFT p50 (ms)</source>
        <translation>TTFT p50（毫秒）</translation>
    </message>
    <message>
        <source>TTFT p99 (ms)</source>
        <translation>TTFT p99（毫秒）</translation>
    </message>
    <message>
        <source>Prefix-cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <source>Prompt tokens computed</source>
        <translation>计算的提示词词元</translation>
    </message>
    <message>
        <source>Wall time (ms)</source>
        <translation>总耗时（毫秒）</translation>
    </message>
    <message>
        <source>Run to measure the prefix cache.</source>
        <translation>运行以测量前缀缓存。</translation>
    </message>
    <message>
        <source>Shared s&amp;ystem prompt</source>
        <translation>共享系统提示词(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Output tokens</source>
        <translation>输出词元(&amp;O)</translation>
    </message>
    <message>
        <source>Time to first token, request by request</source>
        <translation>逐个请求的首词元时间</translation>
    </message>
    <message>
        <source>request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Run to draw each request&apos;s time to first token with and without the cache.</source>
        <translation>运行后绘制每个请求在使用和不使用缓存时的首词元时间。</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>With the cache, request 1 computed all %1 of its prompt tokens; each later one found %2 of its %3 in the cache.</source>
        <translation>使用缓存时，请求 1 自行计算了全部 %1 个提示词元；之后的每个请求在缓存中找到了其 %3 个中的 %2 个。</translation>
    </message>
    <message>
        <source>without the cache</source>
        <translation>不使用缓存</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingSafetyPanel</name>
    <message>
        <source>“%1”</source>
        <extracomment>Quotation marks around a quoted piece of text (a pattern&apos;s match, a token).</extracomment>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Write a prompt first: it is what goes through the layers.</source>
        <translation>请先写一个提示词：经过各层的正是它。</translation>
    </message>
    <message>
        <source>Nothing was decoded. The input filter matched in the prompt:</source>
        <translation>没有进行任何解码。输入过滤器在提示词中匹配到：</translation>
    </message>
    <message>
        <source>cut at step %1</source>
        <translation>在第 %1 步截断</translation>
    </message>
    <message numerus="yes">
        <source>the model wanted %1 (%2); the ban removed %n token(s) holding %3 of the probability</source>
        <translation>
            <numerusform>模型想写 %1（%2）；禁用短语移除了 %Ln 个词元，占概率的 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Run the prompt: the reply appears here, with each step where the ban acted numbered and the part the output filter withheld struck through.</source>
        <translation>运行提示词：回答会显示在这里，禁用短语起作用的每一步都标有步号，被输出过滤器扣下的部分以删除线显示。</translation>
    </message>
    <message>
        <source>off: no phrases</source>
        <translation>关闭：没有短语</translation>
    </message>
    <message>
        <source>off: no patterns</source>
        <translation>关闭：没有模式</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>未到达</translation>
    </message>
    <message>
        <source>The request was blocked before this layer.</source>
        <translation>请求在这一层之前已被拦下。</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>已通过</translation>
    </message>
    <message>
        <source>No pattern matched the prompt: the model reads it.</source>
        <translation>没有模式匹配提示词：模型会读取它。</translation>
    </message>
    <message>
        <source>At no step did the ban remove 1 % or more of the probability.</source>
        <translation>没有任何一步中禁用短语移除了 1% 或更多的概率。</translation>
    </message>
    <message>
        <source>No refusal pattern matched the reply: by these patterns, the model did not refuse.</source>
        <translation>没有拒绝模式匹配回答：按这些模式判断，模型没有拒绝。</translation>
    </message>
    <message>
        <source>No pattern matched the reply as it streamed.</source>
        <translation>回答流式输出期间没有模式匹配。</translation>
    </message>
    <message>
        <source>acted before decoding</source>
        <translation>在解码前起作用</translation>
    </message>
    <message>
        <source>acted at step %1</source>
        <translation>在第 %1 步起作用</translation>
    </message>
    <message>
        <source>Pattern %1 matched %2 in the prompt: the request was blocked and nothing was decoded.</source>
        <translation>模式 %1 在提示词中匹配到 %2：请求被拦下，没有进行任何解码。</translation>
    </message>
    <message>
        <source>step %1: the model wanted %2 (%3)</source>
        <translation>第 %1 步：模型想写 %2（%3）</translation>
    </message>
    <message numerus="yes">
        <source>At %n step(s) the ban removed 1 % or more of the probability:</source>
        <translation>
            <numerusform>禁用短语在 %Ln 步中移除了 1% 或更多的概率：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(and %n more)</source>
        <translation>
            <numerusform>（另有 %Ln 步）</numerusform>
        </translation>
    </message>
    <message>
        <source>Refusal pattern %1 matched %2 at step %3: the model&apos;s own words, recognised by a pattern, not by a classifier.</source>
        <translation>拒绝模式 %1 在第 %3 步匹配到 %2：这是模型自己的话，由模式识别，而不是由分类器识别。</translation>
    </message>
    <message>
        <source>Pattern %1 matched %2 at step %3: the reply was cut there and nothing after it was generated.</source>
        <translation>模式 %1 在第 %3 步匹配到 %2：回答在此处被截断，之后不再生成任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>A stream had already sent %n character(s) of the match.</source>
        <translation>
            <numerusform>流式输出此前已经发出了匹配内容中的 %Ln 个字符。</numerusform>
        </translation>
    </message>
    <message>
        <source>Blocked by the input filter: the model read nothing, and the user sees only the refusal the server sends.</source>
        <translation>被输入过滤器拦下：模型什么也没读到，用户只看到服务器发出的拒绝。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) decoded in %1 ms; the user is shown %2 of the %3 characters the model wrote.</source>
        <translation>
            <numerusform>用 %1 毫秒解码了 %Ln 步；用户看到模型所写 %3 个字符中的 %2 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>A request passes four layers on its way through a server. Each is shown here for what it is: two lists of patterns, a ban enforced while the model decodes, and the model&apos;s own words. Edit the lists and run.</source>
        <translation>请求在经过服务器时要穿过四层。这里如实展示每一层：两份模式列表、一个在模型解码时强制执行的禁用规则，以及模型自己的话。编辑这些列表后运行。</translation>
    </message>
    <message>
        <source>&amp;Prompt (sent through the model&apos;s chat template)</source>
        <translation>提示词(&amp;P)（通过模型的聊天模板发送）</translation>
    </message>
    <message>
        <source>1. &amp;Input filter: regular expressions, one per line</source>
        <translation>1. 输入过滤器(&amp;I)：正则表达式，每行一个</translation>
    </message>
    <message>
        <source>2. &amp;Banned phrases: plain text, one per line</source>
        <translation>2. 禁用短语(&amp;B)：纯文本，每行一个</translation>
    </message>
    <message>
        <source>3. &amp;Refusal patterns: regular expressions, one per line</source>
        <translation>3. 拒绝模式(&amp;R)：正则表达式，每行一个</translation>
    </message>
    <message>
        <source>4. &amp;Output filter: regular expressions, one per line</source>
        <translation>4. 输出过滤器(&amp;O)：正则表达式，每行一个</translation>
    </message>
    <message>
        <source>I&amp;gnore case</source>
        <translation>忽略大小写(&amp;G)</translation>
    </message>
    <message>
        <source>Patterns match either case; banned phrases match ASCII letters in either case</source>
        <translation>模式不区分大小写；禁用短语中的 ASCII 字母不区分大小写</translation>
    </message>
    <message>
        <source>&amp;Max tokens</source>
        <translation>最大词元数(&amp;M)</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
    <message>
        <source>Put the lesson&apos;s prompt and lists back</source>
        <translation>恢复本课的提示词和列表</translation>
    </message>
    <message>
        <source>Run the prompt through the four layers on the loaded model (greedy)</source>
        <translation>在已加载的模型上让提示词经过四层（贪心解码）</translation>
    </message>
    <message>
        <source>1  Input filter</source>
        <translation>1  输入过滤器</translation>
    </message>
    <message>
        <source>Regular expressions over the prompt. A match blocks the request before the model reads it.</source>
        <translation>作用于提示词的正则表达式。一旦匹配，请求在模型读取之前就被拦下。</translation>
    </message>
    <message>
        <source>2  Banned phrases</source>
        <translation>2  禁用短语</translation>
    </message>
    <message>
        <source>A sampler stage: at every step it removes each token that would complete a phrase, however the phrase is split into tokens.</source>
        <translation>一个采样阶段：每一步都移除会补全某个短语的词元，不论该短语被切分成什么样的词元。</translation>
    </message>
    <message>
        <source>3  The model&apos;s own refusal</source>
        <translation>3  模型自己的拒绝</translation>
    </message>
    <message>
        <source>No filter at all: the model&apos;s own words. The refusal patterns only recognise them in the reply, a pattern match, not a classifier.</source>
        <translation>根本不是过滤器：而是模型自己的话。拒绝模式只是在回答中识别它们，这是模式匹配，不是分类器。</translation>
    </message>
    <message>
        <source>4  Output filter</source>
        <translation>4  输出过滤器</translation>
    </message>
    <message>
        <source>Regular expressions over the reply after every token. At the first match the reply is cut; what was streamed before stays sent.</source>
        <translation>每个词元之后作用于回答的正则表达式。第一次匹配时回答被截断；之前已流式发出的内容仍然是发出去了。</translation>
    </message>
    <message>
        <source>What the model wrote (numbers: steps where the ban acted; struck through: withheld by the output filter)</source>
        <translation>模型写出的内容（数字：禁用短语起作用的步；删除线：被输出过滤器扣下的部分）</translation>
    </message>
    <message>
        <source>Run (F5)</source>
        <translation>运行 (F5)</translation>
    </message>
    <message>
        <source>; </source>
        <extracomment>Between the items of a list inside a sentence.</extracomment>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ServingStreamingPanel</name>
    <message>
        <source>#%1: %2 tokens, TTFT %3 ms</source>
        <translation>#%1：%2 个词元，TTFT %3 毫秒</translation>
    </message>
    <message>
        <source>This mode has no finished request to show.</source>
        <translation>此模式没有可显示的已完成请求。</translation>
    </message>
    <message>
        <source>Run a load on the Load tab first: every request of that run can be shown here.</source>
        <translation>请先在“负载”标签页运行一次负载：该次运行的每个请求都可在此显示。</translation>
    </message>
    <message numerus="yes">
        <source>With streaming, the user of request %1 reads the first text after %2 ms (its time to first token) and then a token every %3 ms on average. Without streaming the screen stays empty for %4 ms, until all %n token(s) are there at once.</source>
        <translation>
            <numerusform>使用流式输出时，请求 %1 的用户在 %2 毫秒后（其首词元时间）读到第一段文字，之后平均每 %3 毫秒一个词元。不用流式输出时，屏幕空白 %4 毫秒，直到全部 %Ln 个词元一次性出现。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Batching</source>
        <translation>批处理(&amp;B)</translation>
    </message>
    <message>
        <source>continuous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静态</translation>
    </message>
    <message>
        <source>Re&amp;quest</source>
        <translation>请求(&amp;Q)</translation>
    </message>
    <message>
        <source>Run a load on the Load tab first.</source>
        <translation>请先在“负载”标签页运行一次负载。</translation>
    </message>
    <message>
        <source>What one user of the last load run saw. The filled area is how much of the answer is on the screen; the grey part is waiting. A long flat stretch is a step in which the batch also read another request&apos;s prompt (prefill).</source>
        <translation>上一次负载运行中一位用户看到的情况。填充区域表示屏幕上已显示的回答有多少；灰色部分是等待。较长的平坦段是批次在这一步里还读入了另一个请求的提示词（预填充）。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategiesController</name>
    <message>
        <source>The prompt is empty: write a few words for every strategy to continue.</source>
        <translation>提示词为空：请写几个词，供每种策略续写。</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Add at least one column (a strategy) to compare.</source>
        <translation>请至少添加一列（一种策略）用于比较。</translation>
    </message>
    <message>
        <source>Run the strategies first: there is nothing to export yet.</source>
        <translation>请先运行各策略：目前还没有可导出的内容。</translation>
    </message>
    <message>
        <source>Cannot write the trace to %1: %2</source>
        <translation>无法将跟踪记录写入 %1：%2</translation>
    </message>
    <message>
        <source>The prompt (%1 tokens) and %2 new tokens need %3 positions, but the model&apos;s context holds %4: lower Max tokens or shorten the prompt.</source>
        <translation>提示词（%1 个词元）加上 %2 个新词元需要 %3 个位置，但模型的上下文只有 %4 个：请减小“最大词元数”或缩短提示词。</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategiesPage</name>
    <message>
        <source>&amp;Strategies</source>
        <translation>策略(&amp;S)</translation>
    </message>
    <message>
        <source>Greedy, beam search and sampling side by side on one prompt, the comparison table measured, and the beam-search tree</source>
        <translation>在同一提示词上并排比较贪心、束搜索和采样，实测对比表，并查看束搜索树</translation>
    </message>
    <message>
        <source>Measuring the comparison table: %1 of %2 (each column again with three seeds, then a width-16 beam)…</source>
        <translation>正在测量对比表：%1 / %2（每列再用三个随机种子运行，然后运行束宽 16 的束）…</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>Running %n column(s) on one prefill of the prompt…</source>
        <translation>
            <numerusform>正在基于提示词的同一次预填充运行 %Ln 列…</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message numerus="yes">
        <source>Prompt: %n token(s), prefilled once in %1 ms; every column forked from its KV blocks. KV pool at its peak: %2 KiB, sharing saved %3 KiB.</source>
        <translation>
            <numerusform>提示词：%Ln 个词元，用 %1 ms 预填充一次；每列都从它的 KV 块分叉。KV 池峰值：%2 KiB，共享节省了 %3 KiB。</numerusform>
        </translation>
    </message>
    <message>
        <source>Columns done; measuring the comparison table…</source>
        <translation>各列已完成；正在测量对比表…</translation>
    </message>
    <message>
        <source>Stopped while measuring the table.</source>
        <translation>测量对比表时已停止。</translation>
    </message>
    <message numerus="yes">
        <source>Table measured: every column re-run with %n seed(s); the width-%1 beam took %2 ms.</source>
        <translation>
            <numerusform>对比表已测量：每列用 %Ln 个随机种子重新运行；束宽 %1 的束用时 %2 ms。</numerusform>
        </translation>
    </message>
    <message>
        <source>Positions each column may use: the prompt and its new tokens</source>
        <translation>每列可使用的位置数：提示词及其新生成的词元</translation>
    </message>
    <message>
        <source>Strategies side by side</source>
        <translation>策略并排比较</translation>
    </message>
    <message>
        <source>Comparison table</source>
        <translation>对比表</translation>
    </message>
    <message>
        <source>Next-token distribution</source>
        <translation>下一个词元的分布</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Columns as an image…</source>
        <translation>将各列导出为图像…</translation>
    </message>
    <message>
        <source>Export the columns</source>
        <translation>导出各列</translation>
    </message>
    <message>
        <source>Comparison table as an image…</source>
        <translation>将对比表导出为图像…</translation>
    </message>
    <message>
        <source>Export the table</source>
        <translation>导出对比表</translation>
    </message>
    <message>
        <source>Beam tree as an image…</source>
        <translation>将束搜索树导出为图像…</translation>
    </message>
    <message>
        <source>Export the tree</source>
        <translation>导出搜索树</translation>
    </message>
    <message>
        <source>Node distribution chart as an image…</source>
        <translation>将节点分布图导出为图像…</translation>
    </message>
    <message>
        <source>Export the chart</source>
        <translation>导出分布图</translation>
    </message>
    <message>
        <source>Runs as a JSONL trace…</source>
        <translation>将运行导出为 JSONL 跟踪记录…</translation>
    </message>
    <message>
        <source>Export the trace</source>
        <translation>导出跟踪记录</translation>
    </message>
    <message>
        <source>&amp;Prompt</source>
        <translation>提示词(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Max tokens</source>
        <translation>最大词元数(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Run all</source>
        <translation>全部运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run every column on the prompt (F5)</source>
        <translation>在提示词上运行每一列 (F5)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the run or the search (Esc)</source>
        <translation>停止运行或搜索 (Esc)</translation>
    </message>
    <message>
        <source>Measure the &amp;table</source>
        <translation>测量对比表(&amp;T)</translation>
    </message>
    <message>
        <source>After the columns: each column again with three seeds, and a width-16 beam for the likeliest text</source>
        <translation>各列完成后：每列再用三个随机种子运行，并用束宽 16 的束寻找最可能的文本</translation>
    </message>
    <message>
        <source>&amp;Add column…</source>
        <translation>添加列(&amp;A)…</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>各列</translation>
    </message>
    <message>
        <source>Beam tree</source>
        <translation>束搜索树</translation>
    </message>
    <message>
        <source>There is no node distribution to export: click a node in the beam tree first.</source>
        <translation>没有可导出的节点分布：请先在束搜索树中点击一个节点。</translation>
    </message>
    <message>
        <source>Stopped before the table was measured.</source>
        <translation>在测量对比表之前已停止。</translation>
    </message>
    <message>
        <source>Run all with “Measure the table” ticked fills this table.</source>
        <translation>勾选“测量对比表”后点击“全部运行”即可填充此表。</translation>
    </message>
    <message>
        <source>Saved the runs as a JSONL trace: %1</source>
        <translation>已将各次运行保存为 JSONL 跟踪文件：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存：%1</translation>
    </message>
    <message>
        <source>Every cell is measured in this run: deterministic? each column re-run with three seeds; diverse? the bigram overlap of those runs (and of the final beams); likeliest text? the column&apos;s log-prob against the best a width-16 beam finds for as many tokens; speed: the time per step and the tokens evaluated per step against greedy. Hover a cell for its numbers.</source>
        <translation>每个单元格都在本次运行中实测：确定性？每列用三个随机种子重新运行；多样？这些运行（以及最终束）的二元组重叠率；最可能的文本？该列的对数概率与束宽 16 的束在相同词元数下找到的最优结果相比；速度：与贪心相比的每步耗时和每步计算的词元数。将鼠标悬停在单元格上可查看具体数值。</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
</context>
<context>
    <name>dlab::ui::StrategyColumn</name>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Sampling T=%1, top-p %2</source>
        <translation>采样 T=%1，top-p %2</translation>
    </message>
    <message>
        <source>Diverse beams k=%1, %2 groups</source>
        <translation>多样化束 k=%1，%2 组</translation>
    </message>
    <message>
        <source>Beam search k=%1</source>
        <translation>束搜索 k=%1</translation>
    </message>
    <message>
        <source>searching: step %1 of at most %2</source>
        <translation>搜索中：第 %1 步，最多 %2 步</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>生成中…</translation>
    </message>
    <message>
        <source>log-prob %1 · perplexity %2</source>
        <translation>对数概率 %1 · 困惑度 %2</translation>
    </message>
    <message>
        <source>distinct-1 %1 · distinct-2 %2</source>
        <translation>distinct-1 %1 · distinct-2 %2</translation>
    </message>
    <message>
        <source>KV blocks %1 (%2 shared)</source>
        <translation>KV 块 %1（%2 个共享）</translation>
    </message>
    <message numerus="yes">
        <source>loop: a %n-token block repeated</source>
        <translation>
            <numerusform>循环：一个 %Ln 词元的片段在重复</numerusform>
        </translation>
    </message>
    <message>
        <source>(stopped)</source>
        <translation>（已停止）</translation>
    </message>
    <message>
        <source>ended with an end-of-text token</source>
        <translation>以文本结束词元结尾</translation>
    </message>
    <message>
        <source>&lt;b&gt;Final beams&lt;/b&gt; (overlap %1, shared start %2 tokens):</source>
        <translation>&lt;b&gt;最终束&lt;/b&gt;（重叠率 %1，共同开头 %2 个词元）：</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Change this column&apos;s strategy and settings</source>
        <translation>修改此列的策略和设置</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove this column</source>
        <translation>移除此列</translation>
    </message>
    <message numerus="yes">
        <source>All %n begin with: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>
            <numerusform>%Ln 条束的共同开头：&lt;i&gt;%1&lt;/i&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>score %1</source>
        <translation>得分 %1</translation>
    </message>
    <message>
        <source>%1 tokens/s · %2 ms per step</source>
        <translation>%1 词元/秒 · 每步 %2 ms</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) evaluated</source>
        <translation>
            <numerusform>计算了 %Ln 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n forward pass(es)</source>
        <translation>
            <numerusform>%Ln 次前向计算</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dlab::ui::UserGuideDialog</name>
    <message>
        <source>The user guide is missing from this build (:/help/desktop-app.md).</source>
        <translation>此版本缺少用户指南（:/help/desktop-app.md）。</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>搜索(&amp;S)：</translation>
    </message>
    <message>
        <source>a word in the guide</source>
        <translation>指南中的词语</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>查找下一个</translation>
    </message>
    <message>
        <source>The next place the word appears (%1)</source>
        <translation>该词下一次出现的位置（%1）</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::BeamTreeLegend</name>
    <message>
        <source>kept (running beam)</source>
        <translation>保留（进行中的束）</translation>
    </message>
    <message>
        <source>pruned (#rank, p when cut)</source>
        <translation>剪枝（#排名，被剪枝时的 p）</translation>
    </message>
    <message>
        <source>finished (#n-best rank)</source>
        <translation>完成（#n-best 排名）</translation>
    </message>
    <message>
        <source>evicted (pushed out of the best)</source>
        <translation>被挤出（被挤出最优集合）</translation>
    </message>
    <message>
        <source>n-best path</source>
        <translation>n-best 路径</translation>
    </message>
    <message>
        <source>KV blocks ⇄ shared with another beam</source>
        <translation>KV 块 ⇄ 与另一条束共享</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>第 %1 组</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::BeamTreeView</name>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>width %1 · α %2</source>
        <translation>束宽 %1 · α %2</translation>
    </message>
    <message>
        <source>cut #%1 · p %2</source>
        <translation>剪枝 #%1 · p %2</translation>
    </message>
    <message>
        <source>#%1 · %2</source>
        <translation>#%1 · %2</translation>
    </message>
    <message>
        <source>evicted · s %1</source>
        <translation>被挤出 · s %1</translation>
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
        <translation>提示词：每个假设都从这里开始。</translation>
    </message>
    <message>
        <source>Beam width %1, length penalty α = %2, %3 steps</source>
        <translation>束宽 %1，长度惩罚 α = %2，%3 步</translation>
    </message>
    <message>
        <source>“%1” (token %2), step %3</source>
        <translation>“%1”（词元 %2），第 %3 步</translation>
    </message>
    <message>
        <source>Kept: running beam %1 of its step (candidate #%2)</source>
        <translation>保留：该步第 %1 条进行中的束（候选 #%2）</translation>
    </message>
    <message>
        <source>Pruned: candidate #%1 of its step, p = %2 when it was cut</source>
        <translation>剪枝：该步的候选 #%1，被剪枝时 p = %2</translation>
    </message>
    <message>
        <source>Finished: hypothesis #%1 of the n best</source>
        <translation>完成：n 个最优假设中的 #%1</translation>
    </message>
    <message>
        <source>Finished (among the best kept, not returned)</source>
        <translation>完成（保留在最优集合中，但未返回）</translation>
    </message>
    <message>
        <source>Evicted: it finished, but better hypotheses pushed it out of the best %1</source>
        <translation>被挤出：已完成，但更好的假设把它挤出了最优的 %1 个</translation>
    </message>
    <message>
        <source>An end token: the hypothesis stops here.</source>
        <translation>结束词元：假设在此结束。</translation>
    </message>
    <message>
        <source>log p %1 (p %2) · cumulative %3 · score %4</source>
        <translation>log p %1（p %2）· 累计 %3 · 得分 %4</translation>
    </message>
    <message>
        <source>Group %1, diversity penalty %2</source>
        <translation>第 %1 组，多样性惩罚 %2</translation>
    </message>
    <message>
        <source>KV blocks %1 (%2 shared with another beam of this step)</source>
        <translation>KV 块 %1（%2 个与该步另一条束共享）</translation>
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
            <numerusform>top-k 保留 %Ln 个词元（多于图中显示的 %1 个）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>top-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>top-p 保留 %Ln 个词元（多于图中显示的 %1 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 removed nothing</source>
        <translation>%1 未移除任何词元</translation>
    </message>
    <message>
        <source>min-p = %1</source>
        <translation>min-p = %1</translation>
    </message>
    <message numerus="yes">
        <source>min-p keeps %n tokens (beyond the %1 shown)</source>
        <translation>
            <numerusform>min-p 保留 %Ln 个词元（超出显示的 %1 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>probability (log scale)</source>
        <translation>概率（对数）</translation>
    </message>
    <message>
        <source>p (log)</source>
        <translation>p（对数）</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>cum.</source>
        <translation>累计</translation>
    </message>
    <message>
        <source>token label %1 hidden</source>
        <translation>词元标签 %1 被隐藏</translation>
    </message>
    <message>
        <source>model probability</source>
        <translation>模型概率</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (id %2): p %3 before the chain, %4 after</source>
        <translation>“%1”（ID %2）：采样链之前 p %3，之后 %4</translation>
    </message>
    <message>
        <source>Forbidden by the grammar: this token cannot continue the text as the constraint requires.</source>
        <translation>被语法禁止：这个词元无法按约束的要求继续文本。</translation>
    </message>
    <message>
        <source>forbidden by the grammar</source>
        <translation>被语法禁止</translation>
    </message>
    <message>
        <source>model p</source>
        <translation>模型 p</translation>
    </message>
    <message>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>forbidden</source>
        <translation>禁止</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::GanttView</name>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>waiting for a slot</source>
        <translation>等待空位</translation>
    </message>
    <message numerus="yes">
        <source>step %1: prefill, %n prompt token(s)</source>
        <translation>
            <numerusform>第 %1 步：预填充，%Ln 个提示词词元</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1: decode, one token</source>
        <translation>第 %1 步：解码，一个词元</translation>
    </message>
    <message>
        <source>step %1: padding (finished, its slot still in the static batch)</source>
        <translation>第 %1 步：填充（已完成，但其空位仍在静态批次中）</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::KvBlockTableView</name>
    <message>
        <source>sequence %1</source>
        <translation>序列 %1</translation>
    </message>
    <message numerus="yes">
        <source>Paged cache: each sequence&apos;s block table (logical block → pool block, %n position(s) per block)</source>
        <translation>
            <numerusform>分页缓存：每个序列的块表（逻辑块 → 池块，每块 %Ln 个位置）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The pool: %n block(s)</source>
        <translation>
            <numerusform>块池：%Ln 个块</numerusform>
        </translation>
    </message>
    <message>
        <source>Contiguous allocator, for comparison: each sequence reserves the whole context (%1 positions)</source>
        <translation>对比：连续分配器——每个序列预留整个上下文（%1 个位置）</translation>
    </message>
    <message>
        <source>in use by one sequence</source>
        <translation>被一个序列占用</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>reserved, not filled</source>
        <translation>已预留，未填充</translation>
    </message>
    <message>
        <source>%1 (its block %2, %3 of %4 slots)</source>
        <translation>%1（其第 %2 块，%4 个槽位中用了 %3 个）</translation>
    </message>
    <message>
        <source>Pool block %1: free</source>
        <translation>池块 %1：空闲</translation>
    </message>
    <message>
        <source>Pool block %1: refcount 1</source>
        <translation>池块 %1：引用计数 1</translation>
    </message>
    <message>
        <source>Pool block %1: refcount %2, shared (a write copies it first)</source>
        <translation>池块 %1：引用计数 %2，共享（写入前先复制）</translation>
    </message>
    <message>
        <source>Used by %1</source>
        <translation>使用者：%1</translation>
    </message>
    <message>
        <source>%1 per block (K and V, all layers)</source>
        <translation>每块 %1（K 和 V，全部层）</translation>
    </message>
    <message>
        <source>%1, logical block %2 → pool block %3</source>
        <translation>%1，逻辑块 %2 → 池块 %3</translation>
    </message>
    <message>
        <source>%1 of %2 slots used (positions %3–%4)</source>
        <translation>%2 个槽位中已用 %1 个（位置 %3–%4）</translation>
    </message>
    <message>
        <source>0 of %1 slots used</source>
        <translation>%1 个槽位中已用 0 个</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n position(s)</source>
        <translation>
            <numerusform>%1：%Ln 个位置</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n block(s) in its table</source>
        <translation>
            <numerusform>其块表中有 %Ln 个块</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 of %3 reserved slots hold positions; the rest stays reserved, unused</source>
        <translation>%1：%3 个预留槽位中有 %2 个存有位置；其余仍被预留，未被使用</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>shared (copy-on-write), one colour per pool block</source>
        <translation>共享（写时复制），每个池块一种颜色</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::KvHeatmapView</name>
    <message>
        <source>Nothing to show yet.</source>
        <translation>暂无可显示的内容。</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>value and unit</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>position %1</source>
        <translation>位置 %1</translation>
    </message>
    <message>
        <source>positions %1–%2</source>
        <translation>位置 %1–%2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <comment>position and token</comment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>quantity: value</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>另有 %1 项</translation>
    </message>
    <message>
        <source>This pixel covers positions %1–%2 and shows their largest value.</source>
        <translation>此像素覆盖位置 %1–%2，显示其中的最大值。</translation>
    </message>
    <message>
        <source>%1 from %2 (pale) to %3 (strongest)</source>
        <translation>%1：从 %2（最浅）到 %3（最强）</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::MaskStrip</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>No constraint at this step.</source>
        <translation>此步骤没有约束。</translation>
    </message>
    <message numerus="yes">
        <source>The grammar removed %1 of the probability: it forbade %n token(s).</source>
        <translation>
            <numerusform>语法移除了 %1 的概率：它禁止了 %Ln 个词元。</numerusform>
        </translation>
    </message>
    <message>
        <source>The most probable of them: “%1” (p = %2).</source>
        <translation>其中最可能的是：“%1”（p = %2）。</translation>
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
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>over capacity</source>
        <translation>超出容量</translation>
    </message>
    <message>
        <source>%1: capacity %2</source>
        <translation>%1：容量 %2</translation>
    </message>
    <message>
        <source>weights %1, KV cache %2</source>
        <translation>权重 %1，KV 缓存 %2</translation>
    </message>
    <message>
        <source>Weights and KV cache together do not fit: the red part is over capacity.</source>
        <translation>权重与 KV 缓存合计放不下：红色部分超出了容量。</translation>
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
        <translation>超出</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>容量</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::ProbabilityLegend</name>
    <message>
        <source>Each token&apos;s background shows how probable the sampler made the token it chose: pale = it was a long shot, saturated = it was nearly certain.</source>
        <translation>每个词元的背景表示采样器选中它时的概率：浅色 = 不太可能，深色 = 几乎确定。</translation>
    </message>
    <message>
        <source>Shading: probability of the chosen token</source>
        <translation>底色：所选词元的概率</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Shading:</source>
        <translation>底色：</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::SamplerWaterfall</name>
    <message>
        <source>kept %1</source>
        <translation>保留 %1</translation>
    </message>
    <message>
        <source>H %1 nats</source>
        <translation>熵 %1 nats</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>H %1 bits</source>
        <translation>H %1 比特</translation>
    </message>
    <message>
        <source>H is the entropy, how uncertain the choice still is: 0 bits means one certain token, 1 bit is like a coin toss, n bits like 2^n equally likely tokens.</source>
        <translation>H 是熵，表示选择仍有多不确定：0 比特表示一个确定的词元，1 比特如同抛硬币，n 比特相当于 2^n 个等可能的词元。</translation>
    </message>
    <message>
        <source>H is the entropy, how uncertain the choice still is: 0 nats means one certain token, ln 2 = 0.69 nats is like a coin toss.</source>
        <translation>H 是熵，表示选择仍有多不确定：0 奈特表示一个确定的词元，ln 2 = 0.69 奈特如同抛硬币。</translation>
    </message>
    <message>
        <source>%1: bars</source>
        <translation>%1：柱</translation>
    </message>
    <message>
        <source>&lt; %1 %</source>
        <translation>&lt; %1%</translation>
    </message>
    <message>
        <source>&gt; %1 %</source>
        <translation>&gt; %1%</translation>
    </message>
    <message>
        <source>allowed %1 of %2</source>
        <translation>允许 %1 / %2</translation>
    </message>
    <message>
        <source>“%1” %2 %</source>
        <translation>“%1” %2%</translation>
    </message>
    <message>
        <source>Forbidden this step, most probable first: %1</source>
        <translation>此步骤被禁止的词元（最可能的在前）：%1</translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation>移除了 %1</translation>
    </message>
    <message>
        <source>kept %1 of its input by raw p · %2 of raw</source>
        <translation>保留输入的 %1（按原始 p）· 原始的 %2</translation>
    </message>
    <message>
        <source>kept %1 of its input · %2 of raw</source>
        <translation>保留输入的 %1 · 原始的 %2</translation>
    </message>
    <message>
        <source>Kept: how many tokens survive, the share of the probability they carry in the distribution this stage was given (as the stages before it left it: top-p 0.95 keeps at least 95 % of it), and their share of the model&apos;s raw distribution.</source>
        <translation>保留：剩下多少个词元；它们在本阶段收到的分布中（即前面各阶段处理后的分布）所占的概率份额（top-p 0.95 至少保留其中的 95%）；以及它们在模型原始分布中的份额。</translation>
    </message>
    <message>
        <source>Kept: how many tokens survive, and the share of the probability they carry, of what this stage was given and of the model&apos;s raw distribution, both weighed with the raw probabilities (temperature 1): this session was saved before the share of what each stage was given was recorded. After another temperature the stages see sharper or flatter probabilities: top-p 0.95 then keeps 95 % of what it sees, which can be a different share by raw p.</source>
        <translation>保留：剩下多少个词元，以及它们所占的概率份额——相对于本阶段收到的部分和模型的原始分布，两者都按原始概率（温度 1）计算：此会话保存时尚未记录每个阶段所收到分布中的份额。在其他温度下，各阶段看到的概率更尖锐或更平坦：top-p 0.95 会保留它所看到的 95%，按原始 p 计算可能是另一个份额。</translation>
    </message>
    <message>
        <source>This step it changed nothing: it passed on what it was given (%1).</source>
        <translation>本步没有改变任何东西：收到的分布原样传下去（%1）。</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
</context>
<context>
    <name>dlab::widgets::StreamingTimelineView</name>
    <message>
        <source>with streaming</source>
        <translation>使用流式输出</translation>
    </message>
    <message>
        <source>without streaming</source>
        <translation>不用流式输出</translation>
    </message>
    <message>
        <source>token %1 of %2 appears at %3 ms</source>
        <translation>第 %1 个词元（共 %2 个）出现于 %3 毫秒</translation>
    </message>
    <message>
        <source>nothing on screen yet: the first token comes at %1 ms</source>
        <translation>屏幕上还什么都没有：首个词元在 %1 毫秒到来</translation>
    </message>
    <message>
        <source>all %1 tokens appear at once at %2 ms</source>
        <translation>全部 %1 个词元在 %2 毫秒一次性出现</translation>
    </message>
    <message>
        <source>nothing on screen until the whole answer is ready at %1 ms</source>
        <translation>直到完整回答在 %1 毫秒就绪前，屏幕上什么都没有</translation>
    </message>
    <message>
        <source>first text at %1 ms</source>
        <translation>首段文字于 %1 毫秒</translation>
    </message>
    <message>
        <source>everything at %1 ms</source>
        <translation>全部于 %1 毫秒</translation>
    </message>
    <message>
        <source>ms since the request arrived</source>
        <translation>自请求到达的毫秒数</translation>
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
    <message>
        <source>Prompt token %1 of %2 · id %3%4</source>
        <translation>提示词第 %1 个词元，共 %2 个 · ID %3%4</translation>
    </message>
    <message>
        <source>special (control) token</source>
        <translation>特殊（控制）词元</translation>
    </message>
    <message numerus="yes">
        <source>The grammar forbade %n token(s) here, %1 of the probability.</source>
        <translation>
            <numerusform>语法在此禁止了 %Ln 个词元，占 %1 的概率。</numerusform>
        </translation>
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
