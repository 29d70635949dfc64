// `client.alpha`: experimental Letta Cloud APIs, without a stability guarantee (the contracts
// may change without notice). Cloud only: on a remote client the getter throws.

/** A value the Decisions API takes as evidence: JSON, exactly. */
export type DecisionJsonValue =
  | string
  | number
  | boolean
  | null
  | DecisionJsonValue[]
  | { [key: string]: DecisionJsonValue };

/** Pick one of the named criteria (1 to 255; the values describe them). */
export interface DecisionChoiceQuestion<Criteria extends Record<string, string> = Record<string, string>> {
  type: "choice";
  instructions: string;
  criteria: Criteria;
}

/** Place the state on a scale: `criteria` are its labels, lowest first (at least one). */
export interface DecisionScoreQuestion<Criteria extends readonly string[] = readonly string[]> {
  type: "score";
  instructions: string;
  criteria: Criteria;
}

/** A yes/no probability (`noul`, 0–1). */
export interface DecisionNoulQuestion {
  type: "noul";
  instructions: string;
}

export type DecisionQuestion = DecisionChoiceQuestion | DecisionScoreQuestion | DecisionNoulQuestion;

export interface DecisionChoiceAnswer<Choice extends string = string> {
  type: "choice";
  choice: Choice;
  probabilities: Partial<Record<Choice, number>>;
  /** 0–1. */
  confidence: number;
}

export interface DecisionScoreAnswer {
  type: "score";
  /** On the question's scale: 0 to `criteria.length - 1`. */
  score: number;
  /** Scale index → label. */
  legend: Record<string, string>;
  probabilities: Partial<Record<string, number>>;
  confidence: number;
}

export interface DecisionNoulAnswer {
  type: "noul";
  noul: number;
}

/** The answer to a question of type `Q`. */
export type DecisionAnswer<Q extends DecisionQuestion> = Q extends DecisionChoiceQuestion<infer Criteria>
  ? DecisionChoiceAnswer<Extract<keyof Criteria, string>>
  : Q extends DecisionScoreQuestion
    ? DecisionScoreAnswer
    : Q extends DecisionNoulQuestion
      ? DecisionNoulAnswer
      : never;

export interface DecisionEvaluateParams<Q extends Record<string, DecisionQuestion> = Record<string, DecisionQuestion>> {
  /** The evidence (JSON: no cycles, `undefined`, holes or non-finite numbers). */
  state: string | DecisionJsonValue[] | { [key: string]: DecisionJsonValue };
  /** Named questions (at least one); the result answers each under its name. */
  questions: Q;
  /** `~typesafe/jev-latest` (default) or a `typesafe/jev-…` model. */
  model?: string;
  /** At most 256 characters. */
  sessionId?: string;
  trace?: Record<string, DecisionJsonValue>;
  user?: string;
  provider?: { allowFallbacks?: boolean };
}

export interface DecisionRequestOptions {
  /** Aborts the request: the promise rejects with `LettaConnectionError` ("Request was aborted."). */
  signal?: AbortSignal;
  /** Positive, ms (default 40 000); then `LettaTimeoutError` ("Request timed out."). */
  timeoutMs?: number;
}

export interface DecisionUsage {
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

export interface DecisionResult<Q extends Record<string, DecisionQuestion> = Record<string, DecisionQuestion>> {
  id: string;
  model: string;
  provider: string;
  answers: { [K in keyof Q]: DecisionAnswer<Q[K]> };
  usage: DecisionUsage;
}

/** `client.alpha.decisions`. */
export interface DecisionsClient {
  /**
   * Classifies `state` without an agent or a sandbox (`POST /v1/alpha/decisions`, sent once).
   * A request that is not valid rejects with `LettaInvalidArgumentError` (`Invalid decision
   * request: …`) before anything is sent; an answer that does not fit its question rejects with
   * `LettaRequestError` (`Decisions API returned an invalid response: …`); a non-2xx status with
   * `APIError`.
   */
  evaluate<const Q extends Record<string, DecisionQuestion>>(
    params: DecisionEvaluateParams<Q>,
    options?: DecisionRequestOptions,
  ): Promise<DecisionResult<Q>>;
}

/** `client.alpha` (Cloud only). */
export interface AlphaClient {
  readonly decisions: DecisionsClient;
}
