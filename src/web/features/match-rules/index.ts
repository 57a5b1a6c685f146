// The public face of match rules: other features and pages import from here only.
export { MatchRuleList } from './match-rule-list';
export { MATCH_RULES_KEY, matchRulesChanged, matchRulesQuery } from './match-rules-api';
export { MatchRulesCard } from './match-rules-card';
