/** The manifest keywords and phrases of one skill found in a query. */
export interface KeywordMatch {
  keywords: string[];
  phrases: string[];
}
