/*
| The retailer's e-mail as the evidence of an outcome: the mail module's rules (SUCCESS_EVIDENCE),
| handed to the one outcome path in release, which mail calls and so cannot import. Preloaded
| everywhere, before anything can record a result.
*/
import { mailEvidence } from '#mail/services/mail_evidence'
import { useOutcomeEvidence } from '#release/services/outcome_evidence'

useOutcomeEvidence(mailEvidence)
