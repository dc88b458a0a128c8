export { ReleasesPage } from './components/ReleasesPage'
export { ReleaseReportPage } from './components/ReleaseReportPage'
