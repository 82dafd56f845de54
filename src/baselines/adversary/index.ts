export { contextRotted, looksClean, promptKey, schemaDrifted, shownLevels } from "./detect.js";
export { HEDGE_FORMS, type HedgeForm, hedgeAbstainStrategy, hedgeFormStrategy, justifiedAnswerStrategy, zeroWorkJsonHedgeStrategy } from "./hedge-forms.js";
export { earlierReplyLeakStrategy, LEAK_FORMS, type LeakForm, leakFormStrategy, splitLeakStrategy } from "./leak-forms.js";
export { pairedWaitStrategy } from "./paired-wait.js";
export { privateValues } from "./private-values.js";
export { SANDBAG_ANSWER, sandbagStrategy } from "./sandbag.js";
export { replyParts, serveAdversary, withAside } from "./serve.js";
export { flakyStrategy, trialCacheStrategy } from "./trial-cache.js";
export { rebuildTwins, type TwinReplayOptions, twinReplayStrategy } from "./twin-replay.js";
