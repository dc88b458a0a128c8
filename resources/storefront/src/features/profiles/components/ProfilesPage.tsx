import { useState } from 'react'
import { AccountLayout } from '../../../shared/layout/AccountLayout'
import { useProfiles } from '../../../shared/api/useProfiles'
import type { Profile } from '@shared/api/contract'
import { Button } from '../../../shared/ui/Button'
import { Modal } from '../../../shared/ui/Modal'
import { PageLoading } from '../../../shared/ui/Spinner'
import { IconEdit, IconPlus, IconTrash } from '../../../shared/ui/icons'
import { BRAND_LABELS } from '../../../shared/lib/cards'
import { CARD_WORDS } from '@shared/vocabulary'
import { useDeleteProfile } from '../api/useDeleteProfile'
import { ProfileWizard } from './ProfileWizard'

export function ProfilesPage() {
  const profiles = useProfiles()
  const remove = useDeleteProfile()
  const [wizard, setWizard] = useState<{ open: boolean; profile: Profile | null }>({
    open: false,
    profile: null,
  })
  // Each opening starts the wizard afresh from the profile (or blank); closing keeps it mounted
  // so the dialog closes and gives focus back.
  const [opened, setOpened] = useState(0)
  const openWizard = (profile: Profile | null) => {
    setOpened((count) => count + 1)
    setWizard({ open: true, profile })
  }
  const [deleting, setDeleting] = useState<Profile | null>(null)

  async function confirmDelete() {
    if (!deleting) return
    try {
      await remove.run(deleting.profileId)
      setDeleting(null)
    } catch (caught) {
      console.error('Could not delete the profile', caught)
    }
  }

  return (
    <AccountLayout
      title="Profiles"
      actions={
        <Button onClick={() => openWizard(null)}>
          <IconPlus width={18} height={18} /> Add a New Profile
        </Button>
      }
    >
      <p className="muted intro">
        Each profile is a shipping and billing address with a card. Use a different profile for each
        slot on the same drop. {CARD_WORDS.profile}
      </p>
      {profiles.loading ? (
        <PageLoading />
      ) : profiles.data?.length ? (
        <ul className="profiles" aria-label="Profiles">
          {profiles.data.map((profile) => (
            <li key={profile.profileId} className="card profile-card">
              <div className="profile-card__top">
                <h2>{profile.profileName}</h2>
                <div className="profile-card__actions">
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Edit ${profile.profileName}`}
                    onClick={() => openWizard(profile)}
                  >
                    <IconEdit width={18} height={18} />
                  </button>
                  <button
                    type="button"
                    className="icon-btn icon-btn--danger"
                    aria-label={`Delete ${profile.profileName}`}
                    onClick={() => setDeleting(profile)}
                  >
                    <IconTrash width={18} height={18} />
                  </button>
                </div>
              </div>
              <p className="profile-card__name">
                {profile.shipping.firstName} {profile.shipping.lastName}
              </p>
              <p className="muted">{profile.shipping.address1}</p>
              <p className="profile-card__card">
                <span>{BRAND_LABELS[profile.card.cardType] ?? 'Card'}</span> ••••{' '}
                {profile.card.last4}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card empty-state">
          <h2>No profiles yet</h2>
          <p className="muted">Add a profile to check out on release day.</p>
          <Button onClick={() => openWizard(null)}>Add a New Profile</Button>
        </div>
      )}
      <ProfileWizard
        key={opened}
        open={wizard.open}
        profile={wizard.profile}
        onClose={() => setWizard({ open: false, profile: null })}
      />
      <Modal
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete profile?"
        subtitle={
          deleting ? `“${deleting.profileName}” and its saved card will be removed.` : undefined
        }
      >
        {remove.error ? (
          <p className="form-error" role="alert">
            {remove.error.message}
          </p>
        ) : null}
        <div className="actions actions--end">
          <Button variant="ghost" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirmDelete()} disabled={remove.pending}>
            {remove.pending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </Modal>
    </AccountLayout>
  )
}
