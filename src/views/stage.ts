// A stage as people read it: the API's stage name in words ("confirming deposit").

/** `confirming_deposit` → `confirming deposit`. */
export function stageWords(stage: string): string {
  return stage.replace(/_/g, ' ');
}
