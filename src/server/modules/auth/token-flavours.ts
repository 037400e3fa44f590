// The two spellings of the token endpoint (docs/identity-and-access.md): what each reads of a
// request, and how it answers a token and a refusal. The grants, the checks and the tokens are the
// same (identity.ts); only the shapes differ.
//   BladeX       /api/blade-auth/oauth/token: grant_type, username, password as md5 hex; a flat
//                snake_case answer, a refusal as {error, error_description}.
//   SpringBlade  /api/blade-auth/token (the open-source Saber client): grantType, account, password
//                SM2-encrypted; the answer and the refusal in the R envelope, camelCase.
import type { FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { envelope } from '../../http/envelope.ts';
import { clientHash } from '../../security/passwords.ts';
import type { LoginError, TokenResponse } from './identity.ts';
import { decryptPassword, type Sm2KeyPair } from './sm2.ts';

type Params = Record<string, string | undefined>;
type Lang = FastifyRequest['lang'];

/** What a token request asks, read from its query and form parameters. */
export interface AskedToken {
  grantType?: string;
  tenantId?: string;
  username?: string;
  /** The password as the server checks it (md5 hex of the typed one); read only for a login. */
  password: () => string | undefined;
  refreshToken?: string;
}

export interface TokenFlavour {
  read(params: Params, request: FastifyRequest): AskedToken;
  answer(token: TokenResponse, lang: Lang): unknown;
  refuse(err: LoginError, lang: Lang): unknown;
}

export function bladeXFlavour(): TokenFlavour {
  return {
    read: (params) => ({
      grantType: params.grant_type,
      tenantId: params.tenantId || params.tenant_id,
      username: params.username,
      password: () => params.password,
      refreshToken: params.refresh_token ?? params.refreshToken,
    }),
    answer: (token) => token,
    refuse: (err, lang) => ({ error: err.error, error_description: t(err.key, lang) }),
  };
}

export function springBladeFlavour(pair: Sm2KeyPair): TokenFlavour {
  return {
    read: (params) => ({
      grantType: params.grantType,
      tenantId: params.tenantId,
      username: params.account,
      password: () => {
        // a ciphertext that does not decrypt is checked like a wrong password (counted, same answer)
        const clear = decryptPassword(params.password ?? '', pair);
        return clear === undefined ? '' : clientHash(clear);
      },
      refreshToken: params.refreshToken,
    }),
    answer: (token, lang) => envelope(200, authInfo(token), t('ok', lang)),
    refuse: (err, lang) => envelope(err.status, null, t(err.key, lang)),
  };
}

/** The token answer in SpringBlade's names (its AuthInfo), with the rest of ours in camelCase. */
function authInfo(token: TokenResponse): Record<string, unknown> {
  return {
    accessToken: token.access_token,
    tokenType: token.token_type,
    refreshToken: token.refresh_token,
    expiresIn: token.expires_in,
    userId: token.user_id,
    tenantId: token.tenant_id,
    deptId: token.dept_id,
    postId: token.post_id,
    roleId: token.role_id,
    oauthId: token.oauth_id,
    account: token.account,
    // SpringBlade's userName is the person's name (the client's top bar shows it)
    userName: token.real_name || token.account,
    nickName: token.nick_name,
    realName: token.real_name,
    // the role aliases: Saber shows its administrator buttons when they include "admin"
    authority: token.role_name,
    roleName: token.role_name,
    avatar: token.avatar,
    clientId: token.client_id,
    license: token.license,
    mustChangePassword: token.must_change_password,
  };
}
