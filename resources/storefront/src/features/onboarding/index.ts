export { AddBillingPage } from './components/AddBillingPage'
export { AddCardPage } from './components/AddCardPage'
export { SignupCompletePage } from './components/SignupCompletePage'
