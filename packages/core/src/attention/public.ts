export { attentionOf, needsPerson, withAttention } from './attention.js';
export { currentTime } from './clock.js';
export {
  ATTENTION_REASONS,
  type Attention,
  type AttentionCode,
  type AttentionLevel,
  type AttentionReason,
  attentionReason,
  type ReasonSubject,
  shellWord,
} from './reasons.js';
export { describeDuration, STALE_AFTER_MS } from './stale.js';
export {
  compareForTriage,
  type TriageFacts,
  type TriageGroup,
  triageGroup,
  triageOrder,
} from './triage.js';
