import { signals } from '#core/services/signals'
import { defineRule, utcMinute } from '#alerts/rules/rule'

/** 5xx answers above a share (1 %) of all answers, every web process together. */
export const serverErrors = defineRule({
  id: 'server_errors',
  description: '5xx answers above the threshold share of the answers of a minute',
  async evaluate({ thresholds }) {
    const [answers, errors] = await Promise.all([
      signals.sum('http_answers', 60_000),
      signals.sum('http_5xx', 60_000),
    ])
    if (answers.total < thresholds.serverErrorMinAnswers || errors.total === 0) return []
    const percent = (errors.total / answers.total) * 100
    if (percent <= thresholds.serverErrorPercent) return []
    const shown = percent >= 10 ? percent.toFixed(0) : percent.toFixed(1)
    return [
      {
        subject: '',
        title: `${shown} % of answers were 5xx since ${utcMinute(answers.since)}`,
        detail:
          `${errors.total} of ${answers.total} answers were server errors (threshold ` +
          `${thresholds.serverErrorPercent} %). The log has each one with its request id.`,
        value: Number(percent.toFixed(2)),
        threshold: thresholds.serverErrorPercent,
      },
    ]
  },
})
