/**
 * The dashboard's Disputes pages (docs/dashboard.md): the list and a dispute's page, read as the API reads them, with
 * what the page needs besides (the currency's exponent, what the evidence will carry of the payment, whether it
 * shipped goods); the evidence form submits through the API's own function.
 */
import type { App } from '../apps';
import type { DashboardDispute, DashboardDisputeList, DashboardDisputePage, Dispute } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Store } from '../store';
import { toDispute } from '../store/disputes';
import { findSession } from '../store/sessions';
import { addressChecksOf, shipsGoods, submitDisputeEvidence, type EvidenceDependencies } from './evidence';
import { appDispute, listAppDisputes, noSuchDispute } from './records';

const dashboardDispute = (dispute: Dispute): DashboardDispute => ({ ...dispute, currency_exponent: exponentOf(dispute.currency) });

export async function listDashboardDisputes(store: Store, app: App, query: unknown): Promise<Result<DashboardDisputeList, Failure>> {
  const listed = await listAppDisputes(store, app, query);
  return listed.ok ? ok({ ...listed.value, data: listed.value.data.map(dashboardDispute) }) : listed;
}

async function pageOf(store: Store, dispute: Dispute): Promise<Result<DashboardDisputePage, Failure>> {
  const session = await findSession(store, dispute.session_id);
  if (!session) return err(noSuchDispute);
  return ok({ dispute: dashboardDispute(dispute), attached: addressChecksOf(session), ships_goods: shipsGoods(session) });
}

export async function dashboardDisputePage(store: Store, app: App, id: string): Promise<Result<DashboardDisputePage, Failure>> {
  const row = await appDispute(store, app, id);
  return row ? pageOf(store, toDispute(row)) : err(noSuchDispute);
}

/** The form's submission, as POST /api/disputes/{id}/evidence runs it; the page as it now is. */
export async function submitDashboardEvidence(deps: EvidenceDependencies, app: App, id: string, body: unknown): Promise<Result<DashboardDisputePage, Failure>> {
  const submitted = await submitDisputeEvidence(deps, app, id, body);
  return submitted.ok ? pageOf(deps.store, submitted.value) : submitted;
}
