/** Building a predictive model rather than answering questions about data. */
export const MODEL_BUILDING =
  /\b(?:prediction|predictive|forecasting|classification|churn|propensity) models?\b|\b(?:train|fit) (?:a |an )?(?:model|classifier)\b|\bmachine learning\b|\bml model\b/i;

/** How a model's quality is measured. */
export const MODEL_METRIC = /\b(?:accuracy|auc|roc|precision|recall|f1|rmse|mae|mape|r2|r²|log ?loss)\b/i;
