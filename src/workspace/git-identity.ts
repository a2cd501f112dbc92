export interface GitIdentity {
  name: string;
  email: string;
}

export const WRENCH_IDENTITY: GitIdentity = {
  name: 'Wrench',
  email: 'wrench@users.noreply.github.com',
};
